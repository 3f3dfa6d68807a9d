// Deep links that open WhatsApp, SMS, Instagram, Telegram, Signal or the
// mail program with the message filled in where the platform allows (RFC
// 3986 percent-encoding, RFC 5724 sms:, RFC 6068 mailto:), and the notification
// record a due event becomes.
//
// Invariant: `parseLink(link(r, message: m))` gives back the address and m.

extension Playa {
    /// RFC 3986 percent-encoding (Core's `HTTP.percentEncode`): spaces
    /// become %20, and `&`, `=`, `#`, `?`, `+` can never add or change a
    /// query parameter.
    public static func percentEncode(_ s: String) -> String { HTTP.percentEncode(s) }

    public static func percentDecode(_ s: String) -> String? {
        var out = [UInt8]()
        let u = Array(s.utf8)
        var i = 0
        func val(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
        while i < u.count {
            if u[i] == UInt8(ascii: "%") {
                guard i + 2 < u.count, let a = val(u[i + 1]), let b = val(u[i + 2]) else { return nil }
                out.append(a << 4 | b)
                i += 3
            } else {
                out.append(u[i])
                i += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    public static func link(_ r: Recipient, message: String, web: Bool = false) -> String {
        // Addresses are checked where they enter (typed, imported or a peer's); a link never carries one that is not.
        var r = r
        if let p = r.phone, !PhoneNumber.plausibleE164(p.e164) { r.phone = nil }
        if let e = r.email, validateEmail(e) != nil { r.email = nil }
        switch r.platform {
        case .whatsapp:
            let digits = String(r.phone?.e164.dropFirst() ?? "")
            return web ? "https://wa.me/\(digits)?text=\(percentEncode(message))"
                       : "whatsapp://send?phone=\(digits)&text=\(percentEncode(message))"
        case .sms:
            return "sms:\(r.phone?.e164 ?? "")?body=\(percentEncode(message))"
        case .instagram:
            return web ? "https://ig.me/m/\(percentEncode(r.username ?? ""))"
                       : "instagram://user?username=\(percentEncode(r.username ?? ""))"
        case .telegram:
            // Telegram's documented links, with the text as the chat's draft: by username, or by phone number.
            if let u = r.username {
                return web ? "https://t.me/\(percentEncode(u))?text=\(percentEncode(message))"
                           : "tg://resolve?domain=\(percentEncode(u))&text=\(percentEncode(message))"
            }
            let digits = String(r.phone?.e164.dropFirst() ?? "")
            return web ? "https://t.me/+\(digits)?text=\(percentEncode(message))" : "tg://resolve?phone=\(digits)&text=\(percentEncode(message))"
        case .signal:
            // Signal's link opens the chat; it takes no text (the message goes to the clipboard, as Instagram's).
            return (web ? "https://signal.me/#p/" : "sgnl://signal.me/#p/") + (r.phone?.e164 ?? "")
        case .email:
            // RFC 6068: the address as it is (validateEmail keeps it to characters a mailto: takes), the message as the body.
            return "mailto:\(r.email ?? "")?body=\(percentEncode(mailBody(message)))"
        }
    }

    /// RFC 6068 section 5: a line break in a mailto: body is CR LF, whatever the message had.
    public static func mailBody(_ message: String) -> String {
        message.replacingAll("\r\n", "\n").replacingAll("\r", "\n").replacingAll("\n", "\r\n")
    }

    public struct ParsedLink: Equatable, Sendable {
        public var platform: Platform
        public var address: String
        public var text: String?
    }

    /// Reads a link built by `link` back: the round-trip check.
    public static func parseLink(_ url: String) -> ParsedLink? {
        func query(_ q: Substring) -> [String: String]? {
            var out: [String: String] = [:]
            for pair in q.split(separator: "&", omittingEmptySubsequences: false) {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.count == 2, out[String(kv[0])] == nil, let v = percentDecode(String(kv[1])) else { return nil }
                out[String(kv[0])] = v
            }
            return out
        }
        func split(_ rest: Substring) -> (Substring, Substring)? {
            guard let q = rest.firstIndex(of: "?") else { return nil }
            return (rest[..<q], rest[rest.index(after: q)...])
        }
        if url.hasPrefix("whatsapp://send?"), let q = query(url.dropFirst("whatsapp://send?".count)),
           q.count == 2, let p = q["phone"], let t = q["text"] {
            return ParsedLink(platform: .whatsapp, address: "+" + p, text: t)
        }
        if url.hasPrefix("https://wa.me/"), let (p, qs) = split(url.dropFirst("https://wa.me/".count)),
           let q = query(qs), q.count == 1, let t = q["text"] {
            return ParsedLink(platform: .whatsapp, address: "+" + p, text: t)
        }
        if url.hasPrefix("sms:"), let (p, qs) = split(url.dropFirst(4)), let q = query(qs), q.count == 1, let t = q["body"] {
            return ParsedLink(platform: .sms, address: String(p), text: t)
        }
        if url.hasPrefix("instagram://user?"), let q = query(url.dropFirst("instagram://user?".count)), q.count == 1, let u = q["username"] {
            return ParsedLink(platform: .instagram, address: u, text: nil)
        }
        if url.hasPrefix("https://ig.me/m/"), let u = percentDecode(String(url.dropFirst("https://ig.me/m/".count))), !u.isEmpty, !u.contains("/") {
            return ParsedLink(platform: .instagram, address: u, text: nil)
        }
        if url.hasPrefix("tg://resolve?"), let q = query(url.dropFirst("tg://resolve?".count)), q.count == 2, let t = q["text"] {
            if let u = q["domain"] { return ParsedLink(platform: .telegram, address: u, text: t) }
            if let p = q["phone"] { return ParsedLink(platform: .telegram, address: "+" + p, text: t) }
        }
        if url.hasPrefix("https://t.me/"), let (who, qs) = split(url.dropFirst("https://t.me/".count)), let q = query(qs), q.count == 1,
           let t = q["text"], let w = percentDecode(String(who)), !w.isEmpty, !w.contains("/") {
            return ParsedLink(platform: .telegram, address: w, text: t)
        }
        for prefix in ["sgnl://signal.me/#p/", "https://signal.me/#p/"] where url.hasPrefix(prefix) {
            let p = url.dropFirst(prefix.count)
            if p.hasPrefix("+"), p.count > 1, p.dropFirst().allSatisfy(\.isNumber) { return ParsedLink(platform: .signal, address: String(p), text: nil) }
        }
        if url.hasPrefix("mailto:"), let (to, qs) = split(url.dropFirst("mailto:".count)), let q = query(qs), q.count == 1, let t = q["body"] {
            return ParsedLink(platform: .email, address: String(to), text: t)
        }
        return nil
    }

    /// The notification for a due event: name, platform and time, a short
    /// preview, the link.
    public static func notification(_ e: Event, _ r: Recipient, commandPrefix: String) -> JSONObject {
        let preview = e.message.count > 80 ? String(e.message.prefix(77)) + "..." : e.message
        let n = NotificationRecord(
            tool: "playa", id: e.id, title: "Message \(r.name) on \(r.platform.rawValue) at \(e.time)", body: preview,
            url: link(r, message: e.message),
            actions: [NotificationAction(id: "open", label: "Open \(r.platform.rawValue)", command: "\(commandPrefix) open \(e.id)"),
                      NotificationAction(id: "cancel", label: "Skip", command: "\(commandPrefix) cancel \(e.id)")],
            extra: ["recipient": .string(r.name), "platform": .string(r.platform.rawValue), "date": .string(e.date.description),
                    "time": .string(e.time.description)])
        return n.record
    }
}
