/// Generation of `org.freedesktop.DBus.Introspectable` XML for exported objects.
enum Introspection {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    /// The document for one node: the standard interfaces and `interfaces` if an object is exported
    /// there (`nil` for an intermediate node), followed by the child nodes.
    static func xml(interfaces: [ExportedInterface]?, children: [String]) -> String {
        var lines = [doctype, "<node>"]
        if let interfaces {
            lines.append(contentsOf: standardInterfaces)
            for interface in interfaces { lines.append(contentsOf: describe(interface)) }
        }
        for child in children { lines.append("  <node name=\"\(escape(child))\"/>") }
        lines.append("</node>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static let standardInterfaces = [
        "  <interface name=\"\(StandardInterface.peer)\">",
        "    <method name=\"Ping\"/>",
        "    <method name=\"GetMachineId\">",
        "      <arg name=\"machine_uuid\" type=\"s\" direction=\"out\"/>",
        "    </method>",
        "  </interface>",
        "  <interface name=\"\(StandardInterface.introspectable)\">",
        "    <method name=\"Introspect\">",
        "      <arg name=\"xml_data\" type=\"s\" direction=\"out\"/>",
        "    </method>",
        "  </interface>",
        "  <interface name=\"\(StandardInterface.properties)\">",
        "    <method name=\"Get\">",
        "      <arg name=\"interface_name\" type=\"s\" direction=\"in\"/>",
        "      <arg name=\"property_name\" type=\"s\" direction=\"in\"/>",
        "      <arg name=\"value\" type=\"v\" direction=\"out\"/>",
        "    </method>",
        "    <method name=\"GetAll\">",
        "      <arg name=\"interface_name\" type=\"s\" direction=\"in\"/>",
        "      <arg name=\"properties\" type=\"a{sv}\" direction=\"out\"/>",
        "    </method>",
        "    <method name=\"Set\">",
        "      <arg name=\"interface_name\" type=\"s\" direction=\"in\"/>",
        "      <arg name=\"property_name\" type=\"s\" direction=\"in\"/>",
        "      <arg name=\"value\" type=\"v\" direction=\"in\"/>",
        "    </method>",
        "    <signal name=\"PropertiesChanged\">",
        "      <arg name=\"interface_name\" type=\"s\"/>",
        "      <arg name=\"changed_properties\" type=\"a{sv}\"/>",
        "      <arg name=\"invalidated_properties\" type=\"as\"/>",
        "    </signal>",
        "  </interface>",
    ]

    private static func describe(_ interface: ExportedInterface) -> [String] {
        let declaration = interface.declaration
        var lines = ["  <interface name=\"\(escape(declaration.name))\">"]
        for method in declaration.methods {
            let arguments =
                method.inputs.map { argument($0, direction: "in") }
                + method.outputs.map { argument($0, direction: "out") }
            lines.append(contentsOf: element("method", name: method.name, children: arguments))
        }
        for signal in declaration.signals {
            lines.append(contentsOf: element(
                "signal", name: signal.name, children: signal.arguments.map { argument($0, direction: nil) }))
        }
        for property in declaration.properties {
            let access = property.setter == nil ? "read" : "readwrite"
            let opening = "    <property name=\"\(escape(property.name))\" type=\"\(escape(property.signature))\" "
                + "access=\"\(access)\""
            if let annotation = changeAnnotation(property.changeNotification) {
                lines.append(opening + ">")
                lines.append(
                    "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(annotation)\"/>")
                lines.append("    </property>")
            } else {
                lines.append(opening + "/>")
            }
        }
        lines.append("  </interface>")
        return lines
    }

    private static func element(_ kind: String, name: String, children: [String]) -> [String] {
        if children.isEmpty { return ["    <\(kind) name=\"\(escape(name))\"/>"] }
        return ["    <\(kind) name=\"\(escape(name))\">"] + children + ["    </\(kind)>"]
    }

    private static func argument(_ argument: DBusArgument, direction: String?) -> String {
        var attributes = ""
        if let name = argument.name { attributes += " name=\"\(escape(name))\"" }
        attributes += " type=\"\(escape(argument.signature))\""
        if let direction { attributes += " direction=\"\(direction)\"" }
        return "      <arg\(attributes)/>"
    }

    /// The annotation value, or `nil` for the default (`true`), which need not be stated.
    private static func changeAnnotation(_ notification: DBusProperty.ChangeNotification) -> String? {
        switch notification {
        case .emitsValue: nil
        case .invalidates: "invalidates"
        case .constant: "const"
        case .none: "false"
        }
    }

    /// Escapes text for an XML attribute; names are validated identifiers, but argument names are free text.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
