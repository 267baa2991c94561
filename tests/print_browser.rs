//! The HTML preview in a real browser: headless Chromium (Debian's
//! `chromium`, installed by `.ci/run`) opens the page offline, every card's
//! SVG is laid out at card size with the embedded fonts loaded, no script
//! or console error occurs, the search box, the menus, the field value and
//! the problems toggle narrow the cards as the count line says, a card's
//! warnings show under it, and a screenshot shows cards, not a blank page.
//! Ignored unless asked for (`cargo test -- --ignored`), as it needs Chromium.

mod common;
use common::{cardsmith, outside_program, repo, stderr};

use std::path::Path;
use std::process::{Command, Output};

/// How to get Chromium, for the test that needs it.
const CHROMIUM: &str = "apt-get install chromium";

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

/// A probe that works the search box, the menus, the field value and the
/// problems toggle as a user would (setting a value, then an `input`
/// event) and records how many cards each leaves shown, and the count line.
const FILTER_PROBE: &str = "<script>window.addEventListener('load',()=>{\
const shown=()=>[...document.querySelectorAll('figure.card')].filter(f=>f.getBoundingClientRect().width>0).length;\
const set=(id,v)=>{const e=document.getElementById(id);if(e.type==='checkbox')e.checked=v;else e.value=v;\
e.dispatchEvent(new Event('input'));};\
const counter=()=>document.getElementById('shown').textContent;\
const r={all:shown(),counter:counter()};\
set('search','RECOIL');r.search=shown();set('search','ARMOUR');r.searchName=shown();\
r.searchCounter=counter();set('search','');\
set('kind','defense');r.kind=shown();\
set('deck','Kinetic');r.kindAndDeck=shown();set('kind','');r.deck=shown();set('deck','');\
set('field','arc');r.field=shown();set('value','forward');r.fieldValue=shown();set('field','');\
r.value=shown();set('value','');\
set('problems',true);r.problems=shown();r.problemsCounter=counter();set('problems',false);\
r.end=counter();\
document.body.setAttribute('data-result',JSON.stringify(r));});</script>";

/// Each card's figure in the page, up to its end.
fn figures(page: &str) -> Vec<&str> {
    page.split("<figure class=\"card").skip(1).map(|f| &f[..f.find("</figure>").expect("closed")]).collect()
}

/// Undoes the page's escaping.
fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// The value of `attribute` on each card's figure, unescaped.
fn card_attributes(page: &str, attribute: &str) -> Vec<String> {
    let needle = format!(" {attribute}=\"");
    figures(page)
        .into_iter()
        .map(|figure| {
            let start = figure.find(&needle).expect("the attribute") + needle.len();
            unescape(&figure[start..start + figure[start..].find('"').expect("closed")])
        })
        .collect()
}

/// What the search box reads of each card, lower case: its name and the
/// text of each `<text>` of its faces, with runs of white space as one.
fn card_words(page: &str) -> Vec<String> {
    let names = card_attributes(page, "data-name");
    figures(page)
        .into_iter()
        .zip(names)
        .map(|(figure, name)| {
            let faces = &figure[..figure.find("<figcaption>").expect("a caption")];
            let mut words = vec![name];
            for text in faces.split("<text").skip(1) {
                let inner = &text[text.find('>').expect("a tag") + 1..text.find("</text>").expect("closed")];
                let mut plain = String::new();
                let mut in_tag = false;
                for c in inner.chars() {
                    match c {
                        '<' => in_tag = true,
                        '>' => in_tag = false,
                        c if !in_tag => plain.push(c),
                        _ => {}
                    }
                }
                words.push(unescape(&plain));
            }
            words.join(" ").split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
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
    outside_program(Command::new("chromium").args(common::CHROMIUM_FLAGS).arg(&profile).args(args), CHROMIUM)
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
    let (words, kinds, decks, fields) = (
        card_words(&page),
        card_attributes(&page, "data-kind"),
        card_attributes(&page, "data-decks"),
        card_attributes(&page, "data-fields"),
    );
    let in_deck = |i: usize| serde_json::from_str::<Vec<String>>(&decks[i]).unwrap().contains(&"Kinetic".to_string());
    let field = |i: usize, name: Option<&str>, value: &str| {
        let pairs: Vec<(String, String)> = serde_json::from_str(&fields[i]).unwrap();
        pairs.iter().any(|(n, v)| name.is_none_or(|name| n == name) && v.to_lowercase().contains(value))
    };
    let count = |keep: &dyn Fn(usize) -> bool| (0..words.len()).filter(|i| keep(*i)).count();
    let search = count(&|i| words[i].contains("armour"));
    let expected = serde_json::json!({
        "all": 26,
        "counter": "showing 26 of 26 cards; 0 with warnings",
        "search": count(&|i| words[i].contains("recoil")),
        "searchName": search,
        "searchCounter": format!("showing {search} of 26 cards; 0 with warnings"),
        "kind": count(&|i| kinds[i] == "defense"),
        "kindAndDeck": count(&|i| kinds[i] == "defense" && in_deck(i)),
        "deck": count(&|i| in_deck(i)),
        "field": count(&|i| field(i, Some("arc"), "")),
        "fieldValue": count(&|i| field(i, Some("arc"), "forward")),
        "value": count(&|i| field(i, None, "forward")),
        "problems": 0,
        "problemsCounter": "showing 0 of 26 cards; 0 with warnings",
        "end": "showing 26 of 26 cards; 0 with warnings",
    });
    let filtered = probe(&page, "", FILTER_PROBE, dir.path(), "filters");
    assert_eq!(filtered, expected);
    for key in ["search", "searchName", "kind", "deck", "field", "fieldValue"] {
        let n = expected[key].as_u64().unwrap();
        assert!(n > 0 && n < 26, "{key} must narrow the cards to test anything: {expected}");
    }
    assert!(expected["search"].as_u64() < expected["searchName"].as_u64(), "a word of the text alone: {expected}");
    assert!(expected["fieldValue"].as_u64() < expected["field"].as_u64(), "{expected}");

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

/// A probe that records the count line and the cards shown before and
/// after the problems toggle, and whether each card's problems are visible.
const PROBLEMS_PROBE: &str = "<script>window.addEventListener('load',()=>{\
const visible=e=>e.getBoundingClientRect().width>0&&e.getBoundingClientRect().height>0;\
const shown=()=>[...document.querySelectorAll('figure.card')].filter(visible).map(f=>f.dataset.name);\
const toggle=document.getElementById('problems');\
const r={all:shown(),counter:document.getElementById('shown').textContent,\
lists:[...document.querySelectorAll('.problems li')].filter(visible).map(l=>l.textContent.trim()),\
badges:[...document.querySelectorAll('.badge')].filter(visible).map(b=>b.textContent.trim())};\
toggle.checked=true;toggle.dispatchEvent(new Event('change'));\
r.problems=shown();r.problemsCounter=document.getElementById('shown').textContent;\
document.body.setAttribute('data-result',JSON.stringify(r));});</script>";

#[test]
#[ignore = "needs chromium: apt-get install chromium"]
fn a_cards_warnings_show_on_it_and_the_toggle_keeps_those_cards_in_headless_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join("cards")).unwrap();
    std::fs::write(project.join("cardsmith.toml"), "[project]\nname = \"t\"\npaths = [\"cards\"]\n").unwrap();
    let cards =
        "game dreadnaught-2e\n\nevent \"Quiet\" {\n  at 3.0 { impact damage 1 }\n  text \"Draw a card.\"\n}\n\n\
                 event \"Loud\" {\n  at 2.5 { impact damage 2 }\n  text \"Deal 2 {damage}.\"\n}\n";
    std::fs::write(project.join("cards/test.cards"), cards).unwrap();
    let output = cardsmith(&["print", "--format", "html"], &project);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let page = std::fs::read_to_string(project.join("print/preview.html")).unwrap();
    let result = probe(&page, "", PROBLEMS_PROBE, dir.path(), "problems");
    assert_eq!(
        result,
        serde_json::json!({
            "all": ["Quiet", "Loud"],
            "counter": "showing 2 of 2 cards; 1 with warnings",
            "lists": ["!warning L0001 line 4: `Quiet` has a damage effect its text never mentions"],
            "badges": ["!1 warning"],
            "problems": ["Quiet"],
            "problemsCounter": "showing 1 of 2 cards; 1 with warnings",
        })
    );
}

/// The screenshot of the preview in `docs/images/preview.png`: the bundled
/// Dreadnaught cards, one of them with its text edited so that a lint warns
/// about it.  Chromium draws text a little differently from one version to
/// the next, so the image is not compared; it is made again with
///
/// ```sh
/// CARDSMITH_BLESS=1 cargo test --test print_browser -- --ignored screenshot
/// ```
#[test]
#[ignore = "needs chromium: apt-get install chromium"]
fn the_screenshot_in_the_docs_is_of_the_preview() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let game = project.join("cards/dreadnaught-2e");
    std::fs::create_dir_all(&game).unwrap();
    for entry in std::fs::read_dir(repo().join("cards/dreadnaught-2e")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, game.join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(project.join("cardsmith.toml"), "[project]\nname = \"preview\"\npaths = [\"cards\"]\n").unwrap();
    let armour = std::fs::read_to_string(game.join("armour.cards")).unwrap();
    let edited = armour.replace("by 4. Pay 1 {burn} as you shed the burnt layer.", "by 4, shedding the burnt layer.");
    assert_ne!(armour, edited, "the text edited is in the bundled cards");
    std::fs::write(game.join("armour.cards"), edited).unwrap();
    let output = cardsmith(&["print", "--format", "html"], &project);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("0 errors, 1 warning"), "{}", stderr(&output));

    let shot = dir.path().join("preview.png");
    let page = format!("file://{}", project.join("print/preview.html").display());
    let screenshot = format!("--screenshot={}", shot.display());
    let taken =
        chromium(&["--hide-scrollbars", "--window-size=1400,1000", &screenshot, &page], &dir.path().join("profile"));
    let pixmap = resvg::tiny_skia::Pixmap::load_png(&shot)
        .unwrap_or_else(|e| panic!("no screenshot ({e}): {}", String::from_utf8_lossy(&taken.stderr)));
    assert_eq!((pixmap.width(), pixmap.height()), (1400, 1000));
    let docs = repo().join("docs/images/preview.png");
    if std::env::var_os("CARDSMITH_BLESS").is_some() {
        std::fs::copy(&shot, &docs).unwrap();
    }
    let kept = resvg::tiny_skia::Pixmap::load_png(&docs).expect("docs/images/preview.png");
    assert_eq!((kept.width(), kept.height()), (1400, 1000), "the docs' screenshot is of the same window");
}
