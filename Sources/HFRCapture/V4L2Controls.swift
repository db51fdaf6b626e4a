internal import CV4L2

/// One control of a device (VIDIOC_QUERY_EXT_CTRL), with the name v4l2-ctl uses for it.
public struct V4L2Control: Sendable, Equatable {
    public var id: UInt32
    /// The driver's name ("Percentage of Dropped Buffers").
    public var name: String
    /// The name as v4l2-ctl spells it (`percentage_of_dropped_buffers`).
    public var key: String
    public var type: UInt32
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    public var defaultValue: Int64
    public var flags: UInt32

    public var isButton: Bool { type == V4L2_CTRL_TYPE_BUTTON.rawValue }
    public var isReadOnly: Bool { flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0 }
    /// Types VIDIOC_S_CTRL can set (a 32-bit value or a button press).
    public var isSimple: Bool {
        [
            V4L2_CTRL_TYPE_INTEGER, V4L2_CTRL_TYPE_BOOLEAN, V4L2_CTRL_TYPE_MENU, V4L2_CTRL_TYPE_INTEGER_MENU,
            V4L2_CTRL_TYPE_BUTTON, V4L2_CTRL_TYPE_BITMASK,
        ]
        .contains { $0.rawValue == type }
    }

    /// v4l2-ctl's rule: lower-case letters and digits, every other run of characters one `_`.
    public static func key(for name: String) -> String {
        var key = ""
        for c in name.unicodeScalars {
            if c.properties.isAlphabetic || ("0"..."9").contains(c) {
                key += String(c).lowercased()
            } else if !key.isEmpty, key.last != "_" {
                key += "_"
            }
        }
        while key.last == "_" { key.removeLast() }
        return key
    }
}

extension V4L2Device {
    /// Every control the node has, in driver order (class headings and disabled controls left out).
    public func controls() throws(V4L2Failure) -> [V4L2Control] {
        var result: [V4L2Control] = []
        var query = v4l2_query_ext_ctrl()
        query.id = HFR_V4L2_CTRL_FLAG_NEXT_CTRL | HFR_V4L2_CTRL_FLAG_NEXT_COMPOUND
        while try enumerate(.queryExtCtrl, &query) {
            let disabled = query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0
            if !disabled, query.type != V4L2_CTRL_TYPE_CTRL_CLASS.rawValue {
                let name = V4L2Device.string(query.name)
                result.append(
                    V4L2Control(
                        id: query.id, name: name, key: V4L2Control.key(for: name), type: query.type,
                        minimum: query.minimum, maximum: query.maximum, step: query.step,
                        defaultValue: query.default_value, flags: query.flags))
            }
            query.id |= HFR_V4L2_CTRL_FLAG_NEXT_CTRL | HFR_V4L2_CTRL_FLAG_NEXT_COMPOUND
        }
        return result
    }

    /// The current value of a simple control.
    public func value(of control: V4L2Control) throws(V4L2Failure) -> Int32 {
        var c = v4l2_control(id: control.id, value: 0)
        try ioctl(.gCtrl.naming(control.key), &c)
        return c.value
    }

    /// Sets a simple control (a button is pressed whatever the value).
    public func set(_ control: V4L2Control, to value: Int32) throws(V4L2Failure) {
        var c = v4l2_control(id: control.id, value: value)
        try ioctl(.sCtrl.naming(control.key), &c)
    }
}
