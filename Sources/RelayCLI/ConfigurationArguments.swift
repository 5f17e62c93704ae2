public import ArgumentParser
public import RelayConfig

// The configuration's choices as command-line values, declared once here for both agents:
// the flag then accepts exactly the words the file does, and ArgumentParser lists them.

extension TransportKind: ExpressibleByArgument {}
extension UnlockedMirroring: ExpressibleByArgument {}
extension LockFallback: ExpressibleByArgument {}
extension PreviewVisibility: ExpressibleByArgument {}
extension FramebufferFormat: ExpressibleByArgument {}
