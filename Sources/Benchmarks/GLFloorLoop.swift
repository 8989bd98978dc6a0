import Foundation
import CEGL
import GLRenderer
import Presentation
import Rendering

/// The floor `lamina bench` compares against: a minimal hand-written GL loop (`Shaders/floor.glsl`) that draws N
/// textured, alpha-blended quads with a perspective matrix each and reads the frame back —
/// no scene, no plan, no shape math (design/performance-anchors.md measured ≈29 fps for 100 such
/// quads at 720p on llvmpipe with two threads).
final class GLFloorLoop {
    private let context: GLContext
    private var program: GLuint = 0
    private var texture: GLuint = 0
    private var framebuffer: GLuint = 0
    private var target: GLuint = 0
    private var vertexArray: GLuint = 0
    private var buffer: GLuint = 0
    private let width: Int, height: Int
    private var pixels: [UInt8]
    private var matrixLocation: GLint = 0

    init(width: Int, height: Int) throws(GLContextError) {
        self.width = width; self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        context = try GLContext()
        program = try GLShaderProgram.build(EmbeddedShaders.floor, name: "floor.glsl")
        matrixLocation = glGetUniformLocation(program, "u_m")
        glGenVertexArrays(1, &vertexArray)
        glBindVertexArray(vertexArray)
        glGenBuffers(1, &buffer)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), buffer)
        let corners: [GLfloat] = [0, 0, 1, 0, 0, 1, 1, 1]
        corners.withUnsafeBytes { glBufferData(GLenum(GL_ARRAY_BUFFER), $0.count, $0.baseAddress, GLenum(GL_STATIC_DRAW)) }
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
        var image = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for i in 0..<(256 * 256) { image[i * 4] = UInt8(i & 255); image[i * 4 + 1] = UInt8((i >> 8) & 255); image[i * 4 + 2] = 128; image[i * 4 + 3] = 255 }
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        image.withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, 256, 256, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glGenTextures(1, &target)
        glBindTexture(GLenum(GL_TEXTURE_2D), target)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), target, 0)
    }

    /// Draws one frame of `matrices` (column-major clip-space matrices, one per quad) and reads it back.
    func frame(_ matrices: [[GLfloat]]) {
        context.makeCurrent()
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glUseProgram(program)
        glBindVertexArray(vertexArray)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glEnable(GLenum(GL_BLEND))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        for var m in matrices {
            glUniformMatrix4fv(matrixLocation, 1, GLboolean(GL_FALSE), &m)
            glDrawArrays(GLenum(GL_TRIANGLE_STRIP), 0, 4)
        }
        pixels.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
    }
}

/// The floor of a scene drawing its first `floorLayers` sublayers' quads, timed in runs that
/// alternate with the scene's own on the GL backend.
final class FloorTimer: RunTimer {
    private let loop: GLFloorLoop
    /// 30 frames of the same quads: matrices taken from the presentation (outside the timed runs).
    private let matrixFrames: [[[GLfloat]]]
    /// The context the runs leave current: the GL backend's, which the scene's runs draw with.
    private let restoring: GLContext
    /// Seconds spent drawing runs, summed, and the frames they drew.
    private var elapsed: Double = 0
    private var frames = 0

    /// nil where the scene has no floor or no context can be made for it.
    init?(_ scene: BenchScenes.Scene, width: Int, height: Int, restoring: GLContext) {
        guard let count = scene.floorLayers, let loop = try? GLFloorLoop(width: width, height: height) else { return nil }
        self.loop = loop
        self.restoring = restoring
        matrixFrames = (0..<30).map { i in
            RenderBench.floorMatrices(PresentationTree.evaluate(scene.root, at: RenderBench.clock.time(ofFrame: i)),
                                      count: count, width, height)
        }
        loop.frame(matrixFrames[0])
        restoring.makeCurrent()
    }

    var framesPerSecond: Double { elapsed > 0 ? Double(frames) / elapsed : 0 }

    func isDone(after seconds: Double) -> Bool { elapsed >= seconds && frames >= 5 }

    /// Draws a run of frames (`RenderBench.runLength`), then makes the GL backend's context current again.
    func drawRun() {
        let count = RenderBench.runLength(frames: frames, elapsed: elapsed)
        let start = Stopwatch.now()
        for _ in 0..<count {
            loop.frame(matrixFrames[frames % matrixFrames.count])
            frames += 1
        }
        elapsed += Stopwatch.now() - start
        restoring.makeCurrent()
    }
}
