import Foundation
import CEGL

/// Compiles and links the programs of `Shaders/` (one file, two stages), naming the file and the
/// stage in every error.
public enum GLShaderProgram {
    private static func insertingAfterVersion(_ defines: String, _ text: String) -> String {
        guard let newline = text.firstIndex(of: "\n") else { return text }
        return String(text[...newline]) + defines + String(text[text.index(after: newline)...])
    }

    /// Compiles and links a two-stage shader file (`// --- vertex`, `// --- fragment`), with
    /// `defines` inserted after each stage's `#version` line.
    public static func build(_ source: String, name: String, defines: String = "") throws(GLContextError) -> GLuint {
        guard let vertexRange = source.range(of: "// --- vertex"), let fragmentRange = source.range(of: "// --- fragment") else {
            throw GLContextError(reason: "Shaders/\(name) lacks its '// --- vertex' and '// --- fragment' sections")
        }
        let vertex = String(source[vertexRange.upperBound..<fragmentRange.lowerBound])
        let fragment = String(source[fragmentRange.upperBound...])
        return try link(vertex: insertingAfterVersion(defines, trimmedToVersion(vertex)), fragment: insertingAfterVersion(defines, trimmedToVersion(fragment)), name: name)
    }

    /// GLSL requires `#version` on the first line.
    private static func trimmedToVersion(_ text: String) -> String {
        guard let range = text.range(of: "#version") else { return text }
        return String(text[range.lowerBound...])
    }

    private static func compile(_ type: GLenum, _ source: String, name: String) throws(GLContextError) -> GLuint {
        let shader = glCreateShader(type)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var ok: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
        guard ok == GL_TRUE else {
            let log = Self.log { glGetShaderInfoLog(shader, $0, nil, $1) }
            glDeleteShader(shader)
            throw GLContextError(reason: "\(name) \(type == GLenum(GL_VERTEX_SHADER) ? "vertex" : "fragment") stage: \(log)")
        }
        return shader
    }

    private static func link(vertex: String, fragment: String, name: String) throws(GLContextError) -> GLuint {
        let vs = try compile(GLenum(GL_VERTEX_SHADER), vertex, name: name)
        let fs = try compile(GLenum(GL_FRAGMENT_SHADER), fragment, name: name)
        let program = glCreateProgram()
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        glBindAttribLocation(program, 0, "a_corner")
        glLinkProgram(program)
        glDeleteShader(vs)
        glDeleteShader(fs)
        var ok: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
        guard ok == GL_TRUE else {
            throw GLContextError(reason: "\(name) does not link: \(Self.log { glGetProgramInfoLog(program, $0, nil, $1) })")
        }
        return program
    }

    private static func log(_ read: (GLsizei, UnsafeMutablePointer<GLchar>) -> Void) -> String {
        var buffer = [GLchar](repeating: 0, count: 4096)
        read(4096, &buffer)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
