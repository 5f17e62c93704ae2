import RelaySystem
import Testing

/// The directories systemd names in a service's environment, read the one way every agent uses.
@Suite struct ServiceDirectoryTests {
    @Test func theFirstOfSeveralIsTheServicesOwn() {
        #expect(ServiceDirectory.runtime.path(in: ["RUNTIME_DIRECTORY": "/run/relay:/run/other"]) == "/run/relay")
        #expect(ServiceDirectory.state.path(in: ["STATE_DIRECTORY": "/var/lib/relay/"]) == "/var/lib/relay")
        #expect(ServiceDirectory.configuration.path(in: ["CONFIGURATION_DIRECTORY": "/etc/relay"]) == "/etc/relay")
        #expect(ServiceDirectory.configuration.path(in: ["CONFIGURATION_DIRECTORY": "/"]) == "/")
    }

    @Test func whatSystemdCouldNotHaveSetIsIgnored() {
        for kind in ServiceDirectory.allCases {
            #expect(kind.path(in: [:]) == nil)
            #expect(kind.path(in: [kind.rawValue: ""]) == nil)
            #expect(kind.path(in: [kind.rawValue: "relative/dir"]) == nil)
            #expect(kind.path(in: [kind.rawValue: ":/run/relay"]) == "/run/relay")
        }
    }
}
