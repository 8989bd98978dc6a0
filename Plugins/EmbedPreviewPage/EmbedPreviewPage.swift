import Foundation
import PackagePlugin

/// Embeds the preview page (`Sources/Preview/Page/`: its HTML, script and styles) as
/// `EmbeddedPreviewPage.files`, so `lamina preview` serves it from the binary and needs no
/// files, no CDN and nothing else from outside.
@main
struct EmbedPreviewPage: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Sources/Preview/Page")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["html", "js", "css"].contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPreviewPage.swift")
        return [.buildCommand(
            displayName: "Embedding the preview page's \(files.count) file(s)",
            executable: try context.tool(named: "ResourceEmbedder").url,
            arguments: [output.path, "EmbeddedPreviewPage", "data", "--root", folder.path] + files.map(\.path),
            inputFiles: files,
            outputFiles: [output])]
    }
}
