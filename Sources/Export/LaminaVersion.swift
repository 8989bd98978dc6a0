/// The version of Lamina that rendered something: segment plans and manifests carry it, since
/// only the same version is guaranteed to render the same bytes.
public enum LaminaVersion {
    public static let current = "0.7.0"
}
