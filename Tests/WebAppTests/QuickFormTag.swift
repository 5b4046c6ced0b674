/// `tag` without the quick form's mark (`-br1` → `-br`, `-gz1` → `-gz`): the quick form a first
/// request gets and the form kept later are different bytes with tags of their own (docs/compression.md
/// "Validators"), but name the same plain bytes in the same coding. Tests that compare the tags of
/// answers made at different moments of a page's life compare them through this.
func withoutQuickMark(_ tag: String?) -> String? {
    guard let tag else { return nil }
    for quick in ["-br1\"", "-gz1\""] where tag.hasSuffix(quick) { return String(tag.dropLast(2)) + "\"" }
    return tag
}
