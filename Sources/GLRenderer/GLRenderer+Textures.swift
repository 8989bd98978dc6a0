import Foundation
import CEGL
import Geometry
import Rendering

// Contents textures (uploaded once per image, evicted when unused) and pooled pass targets.

extension GLRenderer {
    func evictUnusedTextures() {
        frameNumber += 1
        guard frameNumber % 8 == 0 else { return }
        for (key, lastUse) in textureUse where frameNumber - lastUse > Self.textureLifetime {
            if var texture = textures.removeValue(forKey: key)?.texture { glDeleteTextures(1, &texture) }
            textureUse.removeValue(forKey: key)
        }
    }

    /// Deletes the texture of `image`, if one was uploaded (video frames are drawn once).
    public func forget(_ image: CGImage) {
        guard let entry = textures.removeValue(forKey: ObjectIdentifier(image)) else { return }
        var texture = entry.texture
        glDeleteTextures(1, &texture)
        textureUse.removeValue(forKey: ObjectIdentifier(image))
    }

    /// The texture of a contents image, uploaded on first use and kept while it is drawn.
    func texture(for image: CGImage, images: ImageProvider, mipmapped: Bool) -> GLuint? {
        let key = ObjectIdentifier(image)
        textureUse[key] = frameNumber
        if let entry = textures[key] {
            if mipmapped, !entry.mipmapped {
                glBindTexture(GLenum(GL_TEXTURE_2D), entry.texture)
                glGenerateMipmap(GLenum(GL_TEXTURE_2D))
                textures[key] = (entry.texture, image, true, entry.opaque)
            }
            return entry.texture
        }
        guard let pixels = images.pixels(for: image) else { return nil }
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        pixels.pixels.withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(pixels.width), GLsizei(pixels.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        // Sampling outside the image repeats the edge pixels (§11.4).
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        if mipmapped { glGenerateMipmap(GLenum(GL_TEXTURE_2D)) }
        let opaque = pixels.isOpaque
        textures[key] = (texture, image, mipmapped, opaque)
        return texture
    }

    /// The render target for pass `index`, reused across frames while its size is unchanged.
    func target(_ index: Int, width: Int, height: Int) -> Target {
        if index < targets.count, targets[index].width == width, targets[index].height == height { return targets[index] }
        var texture: GLuint = 0
        var framebuffer: GLuint = 0
        var depth: GLuint = 0
        if index < targets.count {
            texture = targets[index].texture
            framebuffer = targets[index].framebuffer
            depth = targets[index].depth
        } else {
            glGenTextures(1, &texture)
            glGenFramebuffers(1, &framebuffer)
            glGenRenderbuffers(1, &depth)
        }
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), depth)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH_COMPONENT16), GLsizei(width), GLsizei(height))
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_ATTACHMENT), GLenum(GL_RENDERBUFFER), depth)
        let target = Target(framebuffer: framebuffer, texture: texture, depth: depth, width: width, height: height)
        if index < targets.count { targets[index] = target } else { targets.append(target) }
        return target
    }
}
