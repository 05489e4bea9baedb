// The migrations are embedded in the binary by a macro, which cargo cannot see
// reading them: a new or changed migration must still rebuild the crate.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
