//! `print` on a project from a stranger.  Its own templates are code from
//! whoever shared the project: they read nothing outside it, see nothing of
//! the machine, and cannot crash, hang or fill the memory of `print`; nor
//! can its settings ask for images larger than a machine holds.  Each attack
//! here is refused promptly, with what was wrong, and nothing of it reaches
//! an output.

mod common;
use base64::Engine;
use common::{cardsmith, example_project, stderr};

use std::path::Path;
use std::time::{Duration, Instant};

const EVENT: &str = "game dreadnaught-2e\n\nevent \"Quick Repairs\" {\n  at 3.0 { increase damage 1 }\n}\n";

fn project(dir: &Path) {
    std::fs::write(dir.join("cardsmith.toml"), "[project]\npaths = [\"cards\"]\n").expect("manifest");
    std::fs::create_dir_all(dir.join("cards")).expect("cards");
    std::fs::write(dir.join("cards/test.cards"), EVENT).expect("cards");
}

fn template(dir: &Path, name: &str, text: &str) {
    let folder = dir.join("templates/dreadnaught-2e");
    std::fs::create_dir_all(&folder).expect("templates");
    std::fs::write(folder.join(name), text).expect("template");
}

/// An event face whose body is `body`.
fn face(body: &str) -> String {
    format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{{{{ page.viewbox }}}}">{body}</svg>"#)
}

/// Prints the project as HTML, promptly, and gives the exit code and what
/// it said.
fn print(dir: &Path) -> (Option<i32>, String) {
    let started = Instant::now();
    let output = cardsmith(&["print", "--format", "html"], dir);
    let took = started.elapsed();
    let said = stderr(&output);
    assert!(took < Duration::from_secs(10), "print took {took:?}: {said}");
    (output.status.code(), said)
}

/// Everything the run wrote, as text.
fn printed(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("print/preview.html")).unwrap_or_default()
}

#[cfg(unix)]
#[test]
fn a_template_that_links_out_of_the_project_is_refused_unread() {
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("secret.txt"), "the-secret-words").expect("secret");
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    template(dir.path(), "event.svg", &face(r#"<text>{% include "dreadnaught-2e/leak.svg" %}</text>"#));
    let link = dir.path().join("templates/dreadnaught-2e/leak.svg");
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), link).expect("link");
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("leak.svg") && said.contains("outside the project"), "{said}");
    assert!(!said.contains("the-secret-words") && !printed(dir.path()).contains("the-secret-words"));
}

#[cfg(unix)]
#[test]
fn a_templates_folder_that_links_out_of_the_project_is_refused() {
    let outside = tempfile::tempdir().expect("temp dir");
    let folder = outside.path().join("dreadnaught-2e");
    std::fs::create_dir_all(&folder).expect("folder");
    std::fs::write(folder.join("event.svg"), face("<text>the-secret-words</text>")).expect("template");
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    std::os::unix::fs::symlink(outside.path(), dir.path().join("templates")).expect("link");
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("outside the project"), "{said}");
    assert!(!printed(dir.path()).contains("the-secret-words"));
}

#[test]
fn a_template_cannot_read_the_environment() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    template(dir.path(), "event.svg", &face(r#"<text>{{ get_env(name="HOME", default="none") }}</text>"#));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("E0702") && said.contains("cannot read environment variables"), "{said}");
    assert!(!dir.path().join("print").exists(), "nothing is written");
}

#[test]
fn a_macro_that_calls_itself_is_refused_before_drawing() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    let body = "{% macro down(n) %}{{ self::down(n=n + 1) }}{% endmacro down %}<text>{{ self::down(n=0) }}</text>";
    template(dir.path(), "event.svg", &face(body));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("macro `down` of `dreadnaught-2e/event.svg` calls itself"), "{said}");
}

#[test]
fn macros_that_call_each_other_through_an_import_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    template(
        dir.path(),
        "ping.svg",
        r#"{% import "dreadnaught-2e/pong.svg" as pong %}{% macro ping() %}{{ pong::pong() }}{% endmacro ping %}"#,
    );
    template(
        dir.path(),
        "pong.svg",
        r#"{% import "dreadnaught-2e/ping.svg" as ping %}{% macro pong() %}{{ ping::ping() }}{% endmacro pong %}"#,
    );
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("calls itself"), "{said}");
}

#[test]
fn a_template_that_includes_itself_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    template(dir.path(), "event.svg", &face(r#"{% include "dreadnaught-2e/event.svg" %}"#));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("`dreadnaught-2e/event.svg` calls itself"), "{said}");
}

#[test]
fn a_long_chain_of_macros_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    let mut body = String::from("{% macro m0() %}x{% endmacro m0 %}");
    for level in 1..200 {
        body.push_str(&format!("{{% macro m{level}() %}}{{{{ self::m{}() }}}}{{% endmacro m{level} %}}", level - 1));
    }
    body.push_str("<text>{{ self::m199() }}</text>");
    template(dir.path(), "event.svg", &face(&body));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("chain of more than 32"), "{said}");
}

#[test]
fn nested_ranges_stop_at_the_faces_budget() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    let body = "{% for a in range(end=100000) %}{% for b in range(end=100000) %}{% endfor %}{% endfor %}";
    template(dir.path(), "event.svg", &face(body));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("past the 100000 that one face may build"), "{said}");
}

#[test]
fn a_huge_range_is_refused_before_it_is_built() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    template(dir.path(), "event.svg", &face("{% for a in range(end=4000000000) %}{% endfor %}"));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("`range` would build 4000000000 items"), "{said}");
}

#[test]
fn a_face_past_its_size_is_stopped() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    // 90,000 × 1,000 bytes: past the 64 MiB a face may be, within the items.
    let line = "x".repeat(1000);
    let body = format!("{{% for a in range(end=90000) %}}{line}{{% endfor %}}");
    template(dir.path(), "event.svg", &face(&body));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("draws a face of more than 64 MiB"), "{said}");
}

#[test]
fn a_template_that_spends_its_time_is_stopped() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    // Within every count, but slow: each item formats a long number.
    let body = "{% for a in range(end=100000) %}{% for c in [1,2,3,4,5,6,7,8,9,10] %}{% for d in [1,2,3,4,5,6,7,8,9,10] %}{% for e in [1,2,3,4,5,6,7,8,9,10] %}.{% endfor %}{% endfor %}{% endfor %}{% endfor %}";
    template(dir.path(), "event.svg", &face(body));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("took more than 5 s to draw one face") || said.contains("more than 64 MiB"), "{said}");
}

#[test]
fn deeply_nested_tags_are_refused_before_they_are_parsed() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    let body = format!("{}x{}", "{% if true %}".repeat(20_000), "{% endif %}".repeat(20_000));
    template(dir.path(), "event.svg", &face(&body));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("nests tags more than 32 deep"), "{said}");
}

#[test]
fn a_template_that_doubles_a_value_stops_at_its_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    // 2^40 bytes if it ran to the end.
    let body = format!("{{% set s = \"x\" %}}{}", "{% set s = s ~ s %}".repeat(40));
    template(dir.path(), "event.svg", &face(&body));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("`dreadnaught-2e/event.svg` took more than 256 MiB of memory"), "{said}");
    assert!(!dir.path().join("print").exists(), "nothing is written");
}

#[test]
fn a_png_too_large_for_memory_is_refused_before_drawing() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    let args = ["print", "--dpi", "1200", "--paper", "a3", "--card", "280x400", "--format", "png"];
    let output = cardsmith(&args, dir.path());
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("an image of 249 million pixels, past the 40 million"), "{said}");
    assert!(said.contains("print PNGs at 479 dpi or less"), "{said}");
    assert!(!dir.path().join("print").exists(), "nothing is written");
}

/// The header of a PNG of `side` × `side` pixels and no pixels: enough for
/// anything that reads its size, which must refuse it before decoding.
fn png_header(side: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend(side.to_be_bytes());
    png.extend(side.to_be_bytes());
    png.extend([8, 0, 0, 0, 0, 0, 0, 0, 0]);
    png
}

/// An SVG of 10 × 10 that draws `href` as an image.
fn picture(href: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="{href}" width="10" height="10"/></svg>"#
    )
}

fn data(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// Prints the art deck example with `art/railgun.svg` replaced.
fn print_art(svg: &str) -> (Option<i32>, String) {
    let dir = example_project("art-deck");
    std::fs::write(dir.path().join("art/railgun.svg"), svg).expect("art");
    let started = Instant::now();
    let output = cardsmith(&["print", "--format", "png", "--dpi", "50"], dir.path());
    assert!(started.elapsed() < Duration::from_secs(10), "print took {:?}", started.elapsed());
    assert!(!dir.path().join("print").exists(), "nothing is written");
    (output.status.code(), stderr(&output))
}

#[test]
fn art_that_embeds_a_huge_picture_is_refused_before_it_is_decoded() {
    let (code, said) = print_art(&picture(&data("image/png", &png_header(30_000))));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("error[E0712]: the art of `Spinal Railgun` cannot be drawn"), "{said}");
    assert!(said.contains("it embeds an image of 30000 × 30000 pixels"), "{said}");
}

#[test]
fn art_that_embeds_pictures_in_pictures_too_deep_is_refused() {
    let mut svg = picture(&data("image/png", &png_header(4)));
    for _ in 0..5 {
        svg = picture(&data("image/svg+xml", svg.as_bytes()));
    }
    let (code, said) = print_art(&svg);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("it embeds SVG images more than 3 deep"), "{said}");
}

#[test]
fn a_face_that_embeds_a_huge_picture_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    let href = data("image/png", &png_header(30_000));
    template(dir.path(), "event.svg", &face(&format!(r#"<image href="{href}" width="10" height="10"/>"#)));
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("it embeds an image of 30000 × 30000 pixels"), "{said}");
}

#[test]
fn a_template_that_loops_without_writing_is_stopped_by_the_watchdog() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    // 10^12 turns, none of which writes or calls a function.
    let items = format!("[{}]", vec!["0"; 1000].join(","));
    let body = format!("{{% set a = {items} %}}{{% for x in a %}}{{% for y in a %}}{{% for z in a %}}{{% for w in a %}}{{% endfor %}}{{% endfor %}}{{% endfor %}}{{% endfor %}}");
    template(dir.path(), "event.svg", &face(&body));
    let started = Instant::now();
    let output = cardsmith(&["print", "--format", "html"], dir.path());
    let said = stderr(&output);
    assert!(started.elapsed() < Duration::from_secs(30), "print took {:?}", started.elapsed());
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("`dreadnaught-2e/event.svg` took longer than 5 s"), "{said}");
    assert!(!dir.path().join("print").exists(), "nothing is written");
}

#[test]
fn a_template_that_extends_itself_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    project(dir.path());
    template(dir.path(), "event.svg", r#"{% extends "dreadnaught-2e/event.svg" %}"#);
    let (code, said) = print(dir.path());
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("`dreadnaught-2e/event.svg` extends itself"), "{said}");
}
