import Foundation
import PackagePlugin

/// Turns `Shaders/*.glsl` into Swift string constants at build time (`EmbeddedShaders`), so the
/// shader files stay the source of truth and the `lamina` binary runs from any folder.
@main
struct EmbedShaders: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Shaders")
        let shaders = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "glsl" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedShaders.swift")
        return [.buildCommand(
            displayName: "Embedding \(shaders.count) shader(s)",
            executable: try context.tool(named: "ResourceEmbedder").url,
            arguments: [output.path, "EmbeddedShaders", "text"] + shaders.map(\.path),
            inputFiles: shaders,
            outputFiles: [output])]
    }
}
