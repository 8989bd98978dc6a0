import Foundation

// Build tool: `ShaderEmbedder OUTPUT.swift SHADER.glsl…` writes `enum EmbeddedShaders` with one
// string constant per shader file, named after the file (`layer.glsl` → `layer`).

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: ShaderEmbedder OUTPUT.swift SHADER.glsl…\n".utf8))
    exit(2)
}
var source = "// Generated from Shaders/*.glsl by the EmbedShaders plugin. Do not edit.\n\n"
source += "/// The GLSL programs of `Shaders/`, embedded at build time.\nenum EmbeddedShaders {\n"
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        FileHandle.standardError.write(Data("ShaderEmbedder: cannot read \(path)\n".utf8))
        exit(1)
    }
    let name = url.deletingPathExtension().lastPathComponent.replacingOccurrences(of: "-", with: "_")
    // A raw string whose delimiter cannot occur in GLSL.
    source += "    static let \(name) = ####\"\"\"\n\(text)\n\"\"\"####\n"
}
source += "}\n"
do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("ShaderEmbedder: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
