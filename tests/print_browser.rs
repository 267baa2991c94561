//! The HTML preview in a real browser: headless Chromium (Debian's
//! `chromium`, installed by `.ci/run`) opens the page offline, every card's
//! SVG is laid out at card size with the embedded fonts loaded, no script
//! or console error occurs, and a screenshot shows cards, not a blank page.
//! Ignored unless asked for (`cargo test -- --ignored`), as it needs Chromium.

mod common;
use common::{cardsmith, outside_program, repo, stderr};

use std::path::Path;
use std::process::{Command, Output};

/// How to get Chromium, for the test that needs it.
const CHROMIUM: &str = "apt-get install chromium";

const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// A probe added to a copy of the page: it records errors, then writes what
/// it found into `data-result` on the body once the fonts are ready.
const PROBE_HEAD: &str = "<script>window.__errors=[];\
window.addEventListener('error',e=>window.__errors.push(String(e.message||e.type)),true);</script>";
const PROBE_BODY: &str = "<script>document.fonts.ready.then(()=>{\
const figs=[...document.querySelectorAll('figure.card')];\
const small=figs.filter(f=>{const s=f.querySelector('svg');if(!s)return true;const r=s.getBoundingClientRect();return r.width<150||r.height<200;});\
const empty=figs.filter(f=>f.querySelectorAll('svg text').length===0);\
const fonts=[...document.fonts].filter(f=>f.status==='loaded').length;\
const failed=[...document.fonts].filter(f=>f.status==='error').length;\
document.body.setAttribute('data-result',JSON.stringify({cards:figs.length,small:small.length,empty:empty.length,fonts,failed,errors:window.__errors}));\
});</script>";

/// A probe that works the search box and the filters as a user would
/// (setting a value, then an `input` event) and records how many cards each
/// leaves shown.
const FILTER_PROBE: &str = "<script>window.addEventListener('load',()=>{\
const shown=()=>[...document.querySelectorAll('figure.card')].filter(f=>f.getBoundingClientRect().width>0).length;\
const set=(id,v)=>{const e=document.getElementById(id);e.value=v;e.dispatchEvent(new Event('input'));};\
const r={all:shown()};\
set('search','ARMOUR');r.search=shown();set('search','');\
set('kind','defense');r.kind=shown();\
set('deck','Kinetic');r.kindAndDeck=shown();set('kind','');r.deck=shown();set('deck','');\
r.counter=document.getElementById('shown').textContent;\
document.body.setAttribute('data-result',JSON.stringify(r));});</script>";

/// The value of `attribute` on each `<figure class="card"` of the page,
/// unescaped.
fn card_attributes(page: &str, attribute: &str) -> Vec<String> {
    let needle = format!(" {attribute}=\"");
    page.split("<figure class=\"card\"")
        .skip(1)
        .map(|figure| {
            let start = figure.find(&needle).expect("the attribute") + needle.len();
            let value = &figure[start..start + figure[start..].find('"').expect("closed")];
            value
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .collect()
}

/// Opens `page` with `script` before `</body>` and returns what the script
/// wrote into the body's `data-result`.
fn probe(page: &str, head: &str, script: &str, dir: &Path, name: &str) -> serde_json::Value {
    let probed =
        page.replacen("<head>", &format!("<head>{head}"), 1).replacen("</body>", &format!("{script}</body>"), 1);
    let path = dir.join(format!("{name}.html"));
    std::fs::write(&path, probed).unwrap();
    let url = format!("file://{}", path.display());
    let dumped = chromium(
        &["--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000", "--dump-dom", &url],
        &dir.join(format!("profile-{name}")),
    );
    let dom = String::from_utf8_lossy(&dumped.stdout);
    let logs = String::from_utf8_lossy(&dumped.stderr);
    let console: Vec<&str> = logs.lines().filter(|l| l.contains("CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");
    let start = dom
        .find("data-result=\"")
        .map(|i| i + "data-result=\"".len())
        .unwrap_or_else(|| panic!("the probe did not run: {logs}"));
    let end = start + dom[start..].find('"').unwrap();
    serde_json::from_str(&dom[start..end].replace("&quot;", "\"")).unwrap()
}

fn chromium(args: &[&str], profile: &Path) -> Output {
    let profile = format!("--user-data-dir={}", profile.display());
    outside_program(Command::new("chromium").args(FLAGS).arg(&profile).args(args), CHROMIUM)
}

#[test]
#[ignore = "needs chromium: apt-get install chromium"]
fn the_preview_shows_every_card_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = cardsmith(&["print", "cards/dreadnaught-2e", "-o", out.to_str().unwrap(), "--format", "html"], repo());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let page = std::fs::read_to_string(out.join("preview.html")).unwrap();
    let cards = page.matches("<figure class=\"card\"").count();
    assert_eq!(cards, 26, "one figure per card");
    assert!(
        !page.contains("http://")
            || page.matches("http://").count() == page.matches("http://www.w3.org/2000/svg").count(),
        "the page must not load anything from the network"
    );

    // The probe: run the page and read the result from the DOM.
    let result = probe(&page, PROBE_HEAD, PROBE_BODY, dir.path(), "probe");
    assert_eq!(result["cards"], 26, "{result}");
    assert_eq!(result["small"], 0, "every card is laid out at card size: {result}");
    assert_eq!(result["empty"], 0, "every card has text: {result}");
    assert_eq!(result["fonts"], 3, "the three embedded faces load: {result}");
    assert_eq!(result["failed"], 0, "{result}");
    assert_eq!(result["errors"], serde_json::json!([]), "{result}");

    // Search and filters, against what the page says of each card.
    let (names, kinds, decks) = (
        card_attributes(&page, "data-name"),
        card_attributes(&page, "data-kind"),
        card_attributes(&page, "data-decks"),
    );
    let in_deck = |i: usize| serde_json::from_str::<Vec<String>>(&decks[i]).unwrap().contains(&"Kinetic".to_string());
    let count = |keep: &dyn Fn(usize) -> bool| (0..names.len()).filter(|i| keep(*i)).count();
    let expected = serde_json::json!({
        "all": 26,
        "search": count(&|i| names[i].to_lowercase().contains("armour")),
        "kind": count(&|i| kinds[i] == "defense"),
        "kindAndDeck": count(&|i| kinds[i] == "defense" && in_deck(i)),
        "deck": count(&|i| in_deck(i)),
        "counter": "26 of 26 cards",
    });
    let filtered = probe(&page, "", FILTER_PROBE, dir.path(), "filters");
    assert_eq!(filtered, expected);
    for key in ["search", "kind", "deck"] {
        let n = expected[key].as_u64().unwrap();
        assert!(n > 0 && n < 26, "{key} must narrow the cards to test anything: {expected}");
    }

    // A screenshot of the real page is not blank.
    let shot = dir.path().join("shot.png");
    let taken = chromium(
        &[
            "--window-size=1200,1600",
            &format!("--screenshot={}", shot.display()),
            &format!("file://{}", out.join("preview.html").display()),
        ],
        &dir.path().join("profile-2"),
    );
    assert!(shot.is_file(), "no screenshot: {}", String::from_utf8_lossy(&taken.stderr));
    let pixmap = resvg::tiny_skia::Pixmap::load_png(&shot).expect("a PNG screenshot");
    let pixels = pixmap.pixels();
    let background = pixels[0];
    let differing = pixels.iter().filter(|p| **p != background).count();
    assert!(
        differing * 3 > pixels.len(),
        "the screenshot is mostly blank: {differing} of {} pixels differ",
        pixels.len()
    );
    let mut colours: Vec<u32> =
        pixels.iter().map(|p| u32::from(p.red()) << 16 | u32::from(p.green()) << 8 | u32::from(p.blue())).collect();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 50, "only {} colours: not the cards", colours.len());
}
