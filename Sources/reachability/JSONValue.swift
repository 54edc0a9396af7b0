/// A JSON value whose objects keep their keys in the order given, serialised by hand so the
/// output matches the contract byte for byte (`JSONEncoder` does not promise key order).
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONValue])
    /// Keys in the order they are printed.
    case object([(key: String, value: JSONValue)])

    /// A string, or `null` when nil.
    static func string(_ text: String?) -> JSONValue {
        text.map { .string($0) } ?? .null
    }

    /// The compact serialisation: no spaces, no newline.
    var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null:
            out += "null"
        case .bool(let value):
            out += value ? "true" : "false"
        case .int(let value):
            out += String(value)
        case .string(let text):
            JSONWriter.appendString(text, to: &out)
        case .array(let elements):
            out += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { out += "," }
                JSONWriter.appendString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }
}
