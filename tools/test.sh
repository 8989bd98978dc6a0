#!/usr/bin/env bash
# The README's test command: install what is missing, then run the whole test suite, then the
# snapshot-testing example package (a separate package that depends on Lamina by path).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install.sh
export PATH="/opt/swift/usr/bin:$PATH"
# Every suite of the package is XCTest; skipping the empty Swift Testing pass keeps the closing line the real count.
swift test --disable-swift-testing "$@"
# The example's references are committed: a missing one is a failure here, never a recording.
SNAPSHOT_TESTING_RECORD=never swift test --package-path Examples/SnapshotTesting
