/// The demo's placeholder photos: one flat SVG illustration per species, drawn here so the demo
/// needs no binary assets. Served as `image/svg+xml`, which the web app's image proxy must accept.
enum PlaceholderImages {
    /// The content type of every placeholder.
    static let contentType = "image/svg+xml"

    /// The picture for a species as the data set spells it; unknown species get the paw print.
    static func svg(forSpecies species: String) -> String {
        switch species.uppercased() {
        case "DOG": dog
        case "CAT": cat
        case "BIRD": bird
        case "RABBIT": rabbit
        default: other
        }
    }

    /// The common frame: a 4:3 picture with a coloured background, a soft ground and a title
    /// for screen readers.
    private static func frame(title: String, background: String, _ body: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300" \
        role="img" aria-labelledby="t"><title id="t">\(title)</title>
        <rect width="400" height="300" fill="\(background)"/>
        <ellipse cx="200" cy="300" rx="260" ry="70" fill="#ffffff" fill-opacity="0.25"/>
        \(body)
        </svg>

        """
    }

    private static let dog = frame(
        title: "Illustration of a dog",
        background: "#F4A261",
        """
        <ellipse cx="132" cy="150" rx="30" ry="62" fill="#6B4226" transform="rotate(18 132 150)"/>
        <ellipse cx="268" cy="150" rx="30" ry="62" fill="#6B4226" transform="rotate(-18 268 150)"/>
        <circle cx="200" cy="150" r="78" fill="#A0673A"/>
        <ellipse cx="200" cy="190" rx="44" ry="34" fill="#F1D9BF"/>
        <circle cx="172" cy="135" r="9" fill="#2B2118"/>
        <circle cx="228" cy="135" r="9" fill="#2B2118"/>
        <ellipse cx="200" cy="172" rx="15" ry="11" fill="#2B2118"/>
        <path d="M188 196 q12 10 24 0" stroke="#2B2118" stroke-width="4" fill="none" stroke-linecap="round"/>
        <path d="M194 200 h12 v14 a6 6 0 0 1 -12 0 z" fill="#E76F6F"/>
        """
    )

    private static let cat = frame(
        title: "Illustration of a cat",
        background: "#8ECAE6",
        """
        <path d="M132 120 L142 48 L190 92 Z" fill="#7A7F87"/>
        <path d="M268 120 L258 48 L210 92 Z" fill="#7A7F87"/>
        <path d="M144 108 L149 68 L176 94 Z" fill="#F4B6C2"/>
        <path d="M256 108 L251 68 L224 94 Z" fill="#F4B6C2"/>
        <circle cx="200" cy="160" r="80" fill="#9AA0A8"/>
        <ellipse cx="172" cy="148" rx="10" ry="14" fill="#3A5A40"/>
        <ellipse cx="228" cy="148" rx="10" ry="14" fill="#3A5A40"/>
        <path d="M192 178 h16 l-8 10 z" fill="#E5989B"/>
        <path d="M200 188 q-10 12 -20 4 M200 188 q10 12 20 4" stroke="#3D3D3D" stroke-width="3" fill="none"/>
        <path d="M150 180 h-46 M150 190 l-42 10 M250 180 h46 M250 190 l42 10" stroke="#3D3D3D" stroke-width="3"/>
        """
    )

    private static let bird = frame(
        title: "Illustration of a bird",
        background: "#90BE6D",
        """
        <rect x="60" y="228" width="280" height="12" rx="6" fill="#6B4F2A"/>
        <ellipse cx="200" cy="160" rx="70" ry="72" fill="#FFD23F"/>
        <ellipse cx="176" cy="176" rx="38" ry="26" fill="#F4A300" transform="rotate(-20 176 176)"/>
        <circle cx="226" cy="128" r="10" fill="#1F1F1F"/><circle cx="229" cy="125" r="3" fill="#ffffff"/>
        <path d="M262 138 L300 150 L262 162 Z" fill="#F3722C"/>
        <path d="M185 228 v-10 M215 228 v-10" stroke="#F3722C" stroke-width="6" stroke-linecap="round"/>
        """
    )

    private static let rabbit = frame(
        title: "Illustration of a rabbit",
        background: "#CDB4DB",
        """
        <ellipse cx="168" cy="78" rx="22" ry="62" fill="#FFFFFF"/>
        <ellipse cx="232" cy="78" rx="22" ry="62" fill="#FFFFFF"/>
        <ellipse cx="168" cy="82" rx="10" ry="46" fill="#F7C5CC"/>
        <ellipse cx="232" cy="82" rx="10" ry="46" fill="#F7C5CC"/>
        <circle cx="200" cy="180" r="74" fill="#FFFFFF"/>
        <circle cx="174" cy="166" r="9" fill="#2B2118"/><circle cx="226" cy="166" r="9" fill="#2B2118"/>
        <ellipse cx="200" cy="192" rx="10" ry="7" fill="#F28DA0"/>
        <rect x="192" y="204" width="16" height="14" rx="3" fill="#FFFFFF" stroke="#BBBBBB" stroke-width="2"/>
        <circle cx="160" cy="200" r="12" fill="#F7C5CC" fill-opacity="0.7"/>
        <circle cx="240" cy="200" r="12" fill="#F7C5CC" fill-opacity="0.7"/>
        """
    )

    private static let other = frame(
        title: "Illustration of a paw print",
        background: "#FFD166",
        """
        <ellipse cx="200" cy="188" rx="58" ry="48" fill="#5C4033"/>
        <ellipse cx="138" cy="128" rx="20" ry="27" fill="#5C4033" transform="rotate(-20 138 128)"/>
        <ellipse cx="178" cy="98" rx="20" ry="28" fill="#5C4033"/>
        <ellipse cx="222" cy="98" rx="20" ry="28" fill="#5C4033"/>
        <ellipse cx="262" cy="128" rx="20" ry="27" fill="#5C4033" transform="rotate(20 262 128)"/>
        """
    )
}
