extension Check {
    /// `check [TARGET] [--local ADDR] [--netns NAME|PATH] [--json] [-v]` read by `QuickArguments`;
    /// nil for any other form, or one that `validate` refuses.
    static func quickParse(_ arguments: [String]) -> Check? {
        guard let quick = QuickArguments(arguments, valueOptions: NamespaceOptions.quickValueOptions.union(["--local"]),
                                         flagOptions: OutputOptions.quickFlagOptions),
              quick.positionals.count <= 1 else { return nil }
        var check = Check()
        check.target = quick.positionals.first
        check.local = quick.value("--local")
        check.namespaceOptions = NamespaceOptions(quick)
        check.outputOptions = OutputOptions(quick)
        check.probeOptions = .none()
        check.loggingOptions = LoggingOptions(quick)
        guard (try? check.namespaceOptions.validate()) != nil, (try? check.probeOptions.validate()) != nil else { return nil }
        return check
    }
}

extension Watch {
    /// `watch [TARGET ...] [--netns NAME|PATH] [--json] [--count N] [--timeout SECONDS] [-v]` read
    /// by `QuickArguments`; nil for any other form, or one that `validate` refuses.
    static func quickParse(_ arguments: [String]) -> Watch? {
        guard let quick = QuickArguments(arguments, valueOptions: NamespaceOptions.quickValueOptions.union(["--count", "--timeout"]),
                                         flagOptions: OutputOptions.quickFlagOptions) else { return nil }
        var watch = Watch()
        watch.targets = quick.positionals
        watch.namespaceOptions = NamespaceOptions(quick)
        watch.outputOptions = OutputOptions(quick)
        watch.probeOptions = .none()
        watch.loggingOptions = LoggingOptions(quick)
        // ArgumentParser reads an Int with Int(_:) too; a count that is no Int is its message to give.
        let countText = quick.value("--count")
        watch.count = countText.flatMap { Int($0) }
        guard countText == nil || watch.count != nil else { return nil }
        watch.timeoutText = quick.value("--timeout")
        guard (try? watch.namespaceOptions.validate()) != nil, (try? watch.probeOptions.validate()) != nil,
              (try? watch.validate()) != nil else { return nil }
        return watch
    }
}

extension Wait {
    private static let ipv4Flags: Set = ["-4", "--ipv4"], ipv6Flags: Set = ["-6", "--ipv6"]

    /// `wait [TARGET ...] [--any|--all] [-4] [-6] [--netns NAME|PATH] [--timeout SECONDS|forever] [-v]`
    /// read by `QuickArguments` (`--interface` and the probe's options are ArgumentParser's); nil
    /// for any other form, or one that `validate` refuses.
    static func quickParse(_ arguments: [String]) -> Wait? {
        guard let quick = QuickArguments(arguments, valueOptions: NamespaceOptions.quickValueOptions.union(["--timeout"]),
                                         flagOptions: ipv4Flags.union(ipv6Flags).union(["--all", "--any"])),
              let ipv4 = quick.flag(ipv4Flags), let ipv6 = quick.flag(ipv6Flags),
              let all = quick.flag(["--all"]), let any = quick.flag(["--any"]) else { return nil }
        var wait = Wait()
        wait.targets = quick.positionals
        (wait.all, wait.any, wait.ipv4, wait.ipv6) = (all, any, ipv4, ipv6)
        wait.interfaces = []
        wait.namespaceOptions = NamespaceOptions(quick)
        wait.timeoutText = quick.value("--timeout")
        wait.probeOptions = .none()
        wait.loggingOptions = LoggingOptions(quick)
        guard (try? wait.namespaceOptions.validate()) != nil, (try? wait.probeOptions.validate()) != nil,
              (try? wait.validate()) != nil else { return nil }
        return wait
    }
}
