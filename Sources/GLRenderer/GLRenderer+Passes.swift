import Foundation
import CEGL
import Geometry
import Rendering

// The two draws that read a pass as a whole rather than an item's texture: a copy of the
// backdrop under a blend-mode item, and one axis of a Gaussian blur.

extension GLRenderer {
    /// Copies the part of the bound target that `item` can touch into `backdropTexture`; false
    /// when that part is empty.
    func copyBackdrop(under item: DrawItem) -> Bool {
        let full = CGRect(x: 0, y: 0, width: currentTarget.width, height: currentTarget.height)
        let bounds = (item.screenBounds ?? full).intersection(full)
        guard !bounds.isNull, bounds.width > 0, bounds.height > 0 else { return false }
        let x0 = Int(bounds.minX.rounded(.down)), y0 = Int(bounds.minY.rounded(.down))
        let x1 = min(currentTarget.width, Int(bounds.maxX.rounded(.up))), y1 = min(currentTarget.height, Int(bounds.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return false }
        glActiveTexture(GLenum(GL_TEXTURE2))
        glBindTexture(GLenum(GL_TEXTURE_2D), backdropTexture)
        if backdropCapacity.width < x1 - x0 || backdropCapacity.height < y1 - y0 {
            backdropCapacity = (max(backdropCapacity.width, x1 - x0), max(backdropCapacity.height, y1 - y0))
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(backdropCapacity.width), GLsizei(backdropCapacity.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        }
        glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLint(x0), GLint(y0), GLsizei(x1 - x0), GLsizei(y1 - y0))
        glActiveTexture(GLenum(GL_TEXTURE0))
        backdropOrigin = (GLint(x0), GLint(y0))
        return true
    }

    /// One axis of a Gaussian blur of `source` over the whole bound target.
    func blur(_ source: GLuint?, sigma: CGFloat, horizontal: Bool) {
        guard let source else { return }
        glUseProgram(blurProgram.program)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), source)
        glUniform1i(blurProgram.source, 0)
        let texel = horizontal ? (1 / GLfloat(currentTarget.width), GLfloat(0)) : (GLfloat(0), 1 / GLfloat(currentTarget.height))
        glUniform2f(blurProgram.step, texel.0, texel.1)
        let kernel = GaussianKernel(sigma: sigma)
        glUniform1fv(blurProgram.weights, GLsizei(kernel.weights.count), kernel.weights)
        glUniform1i(blurProgram.radius, GLint(kernel.radius))
        // Replace, don't blend: the blur pass starts cleared and is written once.
        glDisable(GLenum(GL_BLEND))
        glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        glEnable(GLenum(GL_BLEND))
        glUseProgram(program.program)
    }
}
