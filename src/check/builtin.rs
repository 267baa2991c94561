//! The rulesets bundled with cardsmith, compiled into the binary so a
//! project can name a game without copying its ruleset.

macro_rules! bundled {
    ($($id:literal),* $(,)?) => {
        /// `(id, file name shown in diagnostics, text)`.
        pub const RULESETS: &[(&str, &str, &str)] = &[$((
            $id,
            concat!("<bundled>/", $id, ".rules"),
            include_str!(concat!("../../cards/", $id, "/", $id, ".rules")),
        )),*];
    };
}

bundled!("dreadnaught-2e", "dreadnaught-1e", "dreadnought-tcg", "dropfleet-1.3");

pub fn ids() -> impl Iterator<Item = &'static str> {
    RULESETS.iter().map(|(id, _, _)| *id)
}

pub fn find(id: &str) -> Option<(&'static str, &'static str)> {
    RULESETS.iter().find(|(i, _, _)| *i == id).map(|(_, name, text)| (*name, *text))
}
