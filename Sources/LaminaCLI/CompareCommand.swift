import Foundation
import Lamina

/// `lamina compare A.png B.png [--diff OUT.png]` (cli.md): the comparator the reftests use.
enum CompareCommand {
    static let usage = """
    usage: lamina compare A.png B.png [--diff OUT.png] [--overwrite]

    Prints PSNR (dB, over premultiplied RGBA), the largest channel difference (0…255) and the
    number of pixels where some channel differs by more than 2/255. Exit status 0 when the
    images have the same size (whatever they contain), 1 when they cannot be compared.
    --diff OUT.png writes a picture of the differences: black where equal, red where not.
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["--diff"], flags: ["--help", "-h", "--overwrite"])
        if args.flags.contains("--help") || args.flags.contains("-h") {
            print(usage)
            return 0
        }
        guard args.positional.count == 2 else { throw UsageError(description: "compare takes two PNG files") }
        let images = try args.positional.map { path throws(JobFailure) -> Image in
            do { return try ImageFile.read(contentsOf: URL(fileURLWithPath: path)) } catch { throw JobFailure(description: "\(error)") }
        }
        guard let difference = ImageComparison.compare(images[0], images[1]) else {
            throw JobFailure(description: "\(args.positional[1]): size \(images[1].width)x\(images[1].height) differs from \(args.positional[0])'s \(images[0].width)x\(images[0].height)")
        }
        let psnr = difference.psnr.isInfinite ? "inf" : String(format: "%.2f", difference.psnr)
        print("psnr \(psnr) dB, max difference \(difference.maxChannelDifference), \(difference.pixelsOverTolerance) of \(difference.pixelCount) pixels over 2/255")
        if let path = args.values("--diff").last, let diff = ImageComparison.differenceImage(images[0], images[1]) {
            do {
                try ImageFile.writePNG(diff, to: URL(fileURLWithPath: path), overwrite: args.flags.contains("--overwrite"))
            } catch {
                throw JobFailure(description: "\(error)")
            }
        }
        return 0
    }
}
