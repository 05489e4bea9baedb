//! Saved standard 军棋 layouts outside the database: their names, and the small
//! `junqi-layout/1` JSON file they are exported to and imported from.

/// How many layouts one player may keep.
pub const MAX_SAVED: usize = 50;
/// Longest layout name, in characters.
pub const MAX_NAME: usize = 40;

/// A layout name as stored: trimmed, 1–40 characters, no control characters.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("a layout needs a name".into());
    }
    if name.chars().count() > MAX_NAME {
        return Err(format!("a layout name has at most {MAX_NAME} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("a layout name cannot hold control characters".into());
    }
    Ok(name.to_string())
}
