import Foundation
import PackagePlugin

/// Embeds the demo's scene file and the assets it names (`Examples/demo.json`,
/// `Examples/assets/demo-*.png`) as `EmbeddedExamples.files`, so `lamina demo` needs no files;
/// and the title card (`Examples/title-card.json`, `assets/cover.png`) that `bench --export`
/// exports both ways.
@main
struct EmbedExamples: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let examples = context.package.directoryURL.appending(path: "Examples")
        let assets = try FileManager.default.contentsOfDirectory(at: examples.appending(path: "assets"), includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("demo-") || $0.lastPathComponent == "cover.png" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let files = [examples.appending(path: "demo.json"), examples.appending(path: "title-card.json")] + assets
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedExamples.swift")
        return [.buildCommand(
            displayName: "Embedding the demo's \(files.count) file(s)",
            executable: try context.tool(named: "ResourceEmbedder").url,
            arguments: [output.path, "EmbeddedExamples", "data", "--root", examples.path] + files.map(\.path),
            inputFiles: files,
            outputFiles: [output])]
    }
}
