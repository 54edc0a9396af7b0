/// The version `reachability --version` prints: the package's release, as CHANGELOG.md's newest
/// release heading and the tag of its commit name it (`ReleaseVersionTests` checks that they and the README agree).
enum CommandVersion {
    static let current = "0.1.0"
}
