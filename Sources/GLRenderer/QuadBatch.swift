import Foundation
import CEGL
import Geometry
import Rendering

/// The quads of one draw call being collected (layer.glsl's per-instance inputs) and the GL
/// buffers they are drawn from.
final class QuadBatch {
    /// Floats per quad: transform (16), rect, uv, colour, shape, radii, params, band colour (4 each).
    static let quadFloats = 44
    private(set) var count = 0
    private var data: [GLfloat] = []
    /// The unit square's corners (layer.glsl's `a_corner`; blur.glsl's too).
    private var corners: GLuint = 0
    private var instances: GLuint = 0
    /// Corners of a split piece (normalised to its item's rect), drawn as a fan.
    private var polygonCorners: GLuint = 0
    /// Attribute 0 per vertex from `corners`, 1…11 per instance from `instances`.
    private var vertexArray: GLuint = 0

    init() {
        glGenVertexArrays(1, &vertexArray)
        glBindVertexArray(vertexArray)
        glGenBuffers(1, &corners)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), corners)
        let unit: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]
        unit.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glGenBuffers(1, &polygonCorners)
        glGenBuffers(1, &instances)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instances)
        // Never empty: draws that ignore instances (the blur) still find one to read.
        let blank = [GLfloat](repeating: 0, count: Self.quadFloats)
        blank.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        // Per-instance attributes 1…11 (layer.glsl): mat4 in 1…4, then seven vec4s.
        let stride = GLsizei(Self.quadFloats * MemoryLayout<GLfloat>.size)
        for attribute in 0..<11 {
            let location = GLuint(1 + attribute)
            glEnableVertexAttribArray(location)
            glVertexAttribPointer(location, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                                  UnsafeRawPointer(bitPattern: attribute * 4 * MemoryLayout<GLfloat>.size))
            glVertexAttribDivisor(location, 1)
        }
    }

    /// Deletes the buffers (with the context current).
    func delete() {
        glDeleteBuffers(1, &corners)
        glDeleteBuffers(1, &instances)
        glDeleteBuffers(1, &polygonCorners)
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Binds the vertex array the draws read (once per frame: nothing else binds one).
    func bind() { glBindVertexArray(vertexArray) }

    /// Adds one quad, written in place: no temporary arrays per item on the per-frame path.
    func append(_ m: CATransform3D, rect: CGRect, uv: CGRect, color: PremultipliedColor, shape s: CGRect,
                radii: SIMD4<GLfloat>, params: SIMD4<GLfloat>, band: PremultipliedColor) {
        let base = data.count
        data.append(contentsOf: repeatElement(0, count: Self.quadFloats))
        data.withUnsafeMutableBufferPointer { buffer in
            var i = base
            func put(_ v: GLfloat) { buffer[i] = v; i += 1 }
            func put(_ v: CGFloat) { put(GLfloat(v)) }
            // The matrix row by row (fed as GL columns, see layer.glsl).
            put(m.m11); put(m.m12); put(m.m13); put(m.m14); put(m.m21); put(m.m22); put(m.m23); put(m.m24)
            put(m.m31); put(m.m32); put(m.m33); put(m.m34); put(m.m41); put(m.m42); put(m.m43); put(m.m44)
            put(rect.minX); put(rect.minY); put(rect.width); put(rect.height)
            put(uv.minX); put(uv.minY); put(uv.width); put(uv.height)
            put(color.red); put(color.green); put(color.blue); put(color.alpha)
            put(s.minX); put(s.minY); put(s.width); put(s.height)
            put(radii.x); put(radii.y); put(radii.z); put(radii.w)
            put(params.x); put(params.y); put(params.z); put(params.w)
            put(band.red); put(band.green); put(band.blue); put(band.alpha)
        }
        count += 1
    }

    /// Empties the batch.
    func reset() {
        data.removeAll(keepingCapacity: true)
        count = 0
    }

    /// Draws the collected quads in one call, with the program and textures bound.
    func draw() {
        guard count > 0 else { return }
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instances)
        data.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_STRIP), 0, 4, GLsizei(count))
    }

    /// Draws the one collected quad as a fan over `polygon` (its corners, normalised to its rect).
    func draw(polygon: [GLfloat]) {
        guard count > 0 else { return }
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), instances)
        data.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), polygonCorners)
        polygon.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STREAM_DRAW)) }
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        glDrawArraysInstanced(GLenum(GL_TRIANGLE_FAN), 0, GLsizei(polygon.count / 2), 1)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), corners)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
    }
}
