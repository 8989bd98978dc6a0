import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT (Ctrl-C), SIGTERM (`kill`, `timeout`, a service manager) and SIGHUP (a closed
/// terminal) turned into one cancellation: while installed, the first of them cancels
/// `cancellation`, and the work stops the way any cancelled render stops (the encoder is
/// stopped, temporary files and frames already written are removed). The process then exits
/// with `exitStatus` (128 + the signal: 130, 143, 129), as shells report a death by that
/// signal, after printing `message`.
public final class TerminationSignals: @unchecked Sendable {  // dispatch sources: set up once, then only cancelled
    /// The signals handled.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    public let cancellation: Cancellation
    private let first = FirstSignal()
    private let sources: [any DispatchSourceSignal]

    /// Installs the handlers (the signals' default actions, which end the process at once, are
    /// replaced until `uninstall()`).
    public init(cancellation: Cancellation = Cancellation()) {
        self.cancellation = cancellation
        var sources: [any DispatchSourceSignal] = []
        for signo in Self.handled {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            sources.append(source)
        }
        self.sources = sources
        for (source, signo) in zip(sources, Self.handled) {
            source.setEventHandler { [first, cancellation] in
                _ = first.value.compareExchange(expected: 0, desired: signo, ordering: .relaxed)
                cancellation.cancel()
            }
            source.resume()
        }
    }

    /// Restores the default actions.
    public func uninstall() {
        for source in sources { source.cancel() }
        for signo in Self.handled { signal(signo, SIG_DFL) }
    }

    /// The first signal received, nil before any.
    public var received: Int32? {
        let value = first.value.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// 128 + the signal received (130 SIGINT, 143 SIGTERM, 129 SIGHUP); 130 before any.
    public var exitStatus: Int32 { 128 + (received ?? SIGINT) }

    /// The one line to print: `interrupted by SIGTERM; no output written`.
    public var message: String { "interrupted by \(Self.name(received ?? SIGINT)); no output written" }

    /// `SIGINT`, `SIGTERM`, `SIGHUP`, or `signal N`.
    public static func name(_ signo: Int32) -> String {
        switch signo {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signo)"
        }
    }
}

/// The first signal received (0: none), shared with the handlers.
private final class FirstSignal: Sendable {
    let value = Atomic<Int32>(0)
}
