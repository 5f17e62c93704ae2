import Foundation
import Glibc
import RelaySystem
public import Logging
public import ServiceLifecycle

/// An agent's long-running parts, run as one swift-service-lifecycle `ServiceGroup`: SIGTERM and
/// SIGINT shut the group down gracefully, each service in the reverse of the order given (the
/// last one listed stops first, and the next only once it has returned); a service that returns
/// on its own shuts the group down the same way, and one that throws cancels the rest and its
/// error ends the agent. What must happen after every service has stopped (closing the bus,
/// the last commit) follows ``run(_:logger:)`` in the agent's own code.
public enum AgentServices {
    /// Runs `services` until a stop signal, or until one of them returns or throws. With
    /// `hangUpHandled`, the agent has its own source for SIGHUP (relay-phone's filter rules),
    /// which ignoring it here would undo.
    public static func run(
        _ services: [ServiceGroupConfiguration.ServiceConfiguration], logger: Logger, hangUpHandled: Bool = false
    ) async throws {
        // SIGHUP (a closed terminal, `kill -HUP`) must not end an agent that holds a link and a
        // screen: it is ignored unless the agent handles it. The configuration is read once, at
        // start; a restart applies a change (Docs/CONFIGURATION.md). SIGINT and SIGTERM keep
        // their default action until the group's signal sources take them over (on Linux,
        // Dispatch installs its own handler): ignoring them first would lose one that arrives
        // before then.
        if !hangUpHandled { signal(SIGHUP, SIG_IGN) }
        try await group(services, logger: logger).run()
    }

    /// The group ``run(_:logger:)`` runs, made without touching the process's signals (tests
    /// stop it with `triggerGracefulShutdown()` or by a service's return).
    public static func group(_ services: [ServiceGroupConfiguration.ServiceConfiguration], logger: Logger) -> ServiceGroup {
        ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    }

    /// A service made of an async closure that returns when the group shuts down (use
    /// `cancelWhenGracefulShutdown` inside for work that ends on cancellation); its returning
    /// on its own shuts the group down.
    public static func service(
        _ name: String, _ body: @escaping @Sendable () async throws -> Void
    ) -> ServiceGroupConfiguration.ServiceConfiguration {
        ServiceGroupConfiguration.ServiceConfiguration(
            service: ClosureService(body), successTerminationBehavior: .gracefullyShutdownGroup, serviceName: name)
    }

    /// A service whose work is a blocking loop on a thread of its own (``onThread(_:stop:_:)``).
    /// Its returning on its own (`stop` requested by someone else) shuts the group down.
    public static func thread(
        _ name: String, stop: StopRequest, _ loop: @escaping @Sendable () throws -> Void
    ) -> ServiceGroupConfiguration.ServiceConfiguration {
        service(name) { try await onThread(name, stop: stop, loop) }
    }

    /// Runs `loop`, a blocking loop that must return once `stop`'s descriptor is readable, on a
    /// thread named `name`, and returns (or throws) when it does; the group's graceful shutdown
    /// of the calling service, or its cancellation, requests `stop`.
    public static func onThread(
        _ name: String, stop: StopRequest, _ loop: @escaping @Sendable () throws -> Void
    ) async throws {
        try await withTaskCancellationOrGracefulShutdownHandler {
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                // A thread, not a task: the loop blocks in `poll`, which must not hold one of
                // the few threads Swift's tasks run on.
                let thread = Thread {
                    ThreadName.setCurrent(name)
                    done.resume(with: Result { try loop() })
                }
                thread.start()
            }
        } onCancelOrGracefulShutdown: {
            stop.request()
        }
    }
}
