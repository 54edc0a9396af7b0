import ReachabilityModel
import ReachabilitySystem
/// The `KEY=value` lines of a sysfs `uevent` file.
package enum UEvent {
    package static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        // isNewline: "\r\n" is one Character, equal to neither "\r" nor "\n".
        for line in text.split(whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex else { continue }
            let key = String(line[..<equals])
            guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            fields[key] = String(line[line.index(after: equals)...])
        }
        return fields
    }
}
