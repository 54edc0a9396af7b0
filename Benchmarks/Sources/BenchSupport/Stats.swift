import CBenchNetlink
import Foundation

/// Figures of this process from /proc and the C library.
public enum ProcessFigures {
    /// A `kB` field of /proc/self/status (VmRSS, VmHWM, ...), in KiB.
    public static func statusKiB(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return Int(digits) ?? -1
        }
        return -1
    }

    public static var rssKiB: Int { statusKiB("VmRSS") }
    public static var peakRSSKiB: Int { statusKiB("VmHWM") }
    public static var threads: Int { Int(statusKiB("Threads")) }
    /// CPU time of all threads of the process, ns.
    public static var cpuNs: Int64 { nrxb_process_cpu_ns() }
    /// CPU time of every thread but the main one, ns (schedstat): the library's engine and the
    /// callback queues run on dispatch threads, the benchmark's own sends on the main thread (whose
    /// kernel work for a route change would otherwise count as the library's).
    /// (Process CPU, which keeps the time of threads that exited, minus the main thread's.)
    public static var workerCpuNs: Int64 {
        let process = nrxb_process_cpu_ns()
        guard let text = try? String(contentsOfFile: "/proc/self/task/\(getpid())/schedstat", encoding: .utf8),
              let first = text.split(separator: " ").first, let main = Int64(first) else { return process }
        return process - main
    }

    /// glibc heap bytes in use.
    public static var heapBytes: Int64 { nrxb_heap_in_use() }
    public static func trimHeap() { nrxb_malloc_trim() }
    public static var monotonicNs: Int64 { nrxb_monotonic_ns() }
    public static var realtimeUs: Int64 { nrxb_realtime_us() }
}

/// Samples with nearest-rank percentiles, as the shared harness's analyze.py computes them.
public struct Samples: Sendable {
    public private(set) var values: [Double] = []
    public init() {}
    public mutating func add(_ value: Double) { values.append(value) }
    public var count: Int { values.count }

    public func percentile(_ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Swift.max(1, Int((q / 100 * Double(sorted.count)).rounded(.up)))
        return sorted[Swift.min(rank, sorted.count) - 1]
    }

    public var p50: Double { percentile(50) }
    public var p90: Double { percentile(90) }
    public var p99: Double { percentile(99) }
    public var max: Double { values.max() ?? .nan }
    public var min: Double { values.min() ?? .nan }
    public var mean: Double { values.isEmpty ? .nan : values.reduce(0, +) / Double(values.count) }

    /// `{"n":..,"p50":..,"p90":..,"p99":..,"max":..}` rounded to `digits` decimals.
    public func json(digits: Int = 1) -> [String: Any] {
        func r(_ x: Double) -> Double { x.isNaN ? -1 : (x * pow(10, Double(digits))).rounded() / pow(10, Double(digits)) }
        return ["n": count, "p50": r(p50), "p90": r(p90), "p99": r(p99), "max": r(max), "min": r(min), "mean": r(mean)]
    }
}

/// One JSON object per line on stdout: what scripts/bench collects into its table.
public func emitRecord(_ record: [String: Any]) {
    var record = record
    record["time"] = Double(ProcessFigures.realtimeUs) / 1e6
    if let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) {
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// Human-readable progress on stderr.
public func note(_ text: String) {
    FileHandle.standardError.write(Data("[nrx-bench] \(text)\n".utf8))
}
