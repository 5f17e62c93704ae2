import Foundation
import Glibc
import WearableUI

/// For benchmarks: one line per notification drawn, `MONOTONIC_NANOSECONDS<TAB>TITLE`,
/// written after the frame is in the framebuffer, to the file or FIFO named by
/// `RELAY_PRESENT_TRACE`. `CLOCK_MONOTONIC` is the same clock in every process, so a
/// benchmark can subtract the time it sent the notification. Off unless the variable is set.
final class PresentTrace {
    private let handle: FileHandle

    init?(environment: [String: String]) {
        guard let path = environment["RELAY_PRESENT_TRACE"], !path.isEmpty,
            let handle = FileHandle(forWritingAtPath: path)
        else { return nil }
        self.handle = handle
    }

    func presented(_ events: [UIEvent]) {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let nanoseconds = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        var lines = ""
        for case .upsert(let notification, _) in events { lines += "\(nanoseconds)\t\(notification.content.title)\n" }
        if !lines.isEmpty { handle.write(Data(lines.utf8)) }
    }
}
