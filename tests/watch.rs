//! `cardsmith watch`, as a person uses it: the real binary on a project in a
//! temporary folder, its standard output read line by line in a thread,
//! while the test saves card files beside it.  Every wait has a deadline and
//! ends as soon as the line it waits for arrives: no sleep decides a result.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The first check of a debug build, with the watcher started.
const START: Duration = Duration::from_secs(60);
/// A save, seen and checked: the watcher waits for 100 ms of quiet, and a
/// check of one small file takes milliseconds; the rest is slack for a busy
/// machine.
const SAVE: Duration = Duration::from_secs(5);

/// The running `cardsmith watch`, killed when dropped (also when a test
/// fails), with its standard output as lines and their arrival times.
struct Watch {
    child: Child,
    lines: Receiver<(String, Instant)>,
    seen: Vec<String>,
}

impl Watch {
    fn start(dir: &Path) -> Watch {
        Watch::start_with(dir, &[])
    }

    fn start_with(dir: &Path, args: &[&str]) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardsmith"))
            .arg("watch")
            .args(args)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cardsmith watch starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send((line, Instant::now())).is_err() {
                    break;
                }
            }
        });
        Watch { child, lines, seen: Vec::new() }
    }

    /// Waits for a line holding `text`, for at most `limit`; returns when it
    /// arrived.
    #[track_caller]
    fn wait_for(&mut self, text: &str, limit: Duration) -> Instant {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((line, at)) => {
                    self.seen.push(line.clone());
                    if line.contains(text) {
                        return at;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no line with {text:?} within {limit:?}; the output so far:\n{}", self.seen.join("\n"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("watch ended before a line with {text:?}; its output:\n{}", self.seen.join("\n"))
                }
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A new project that checks clean: its folder and its card file.
fn project(dir: &Path) -> (PathBuf, PathBuf) {
    let output = common::cardsmith(&["new", "proj", "--game", "dreadnaught-2e"], dir);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let cards = dir.join("proj/cards/proj.cards");
    assert!(std::fs::read_to_string(&cards).expect("the new card file").contains("\n  symbol "));
    (dir.join("proj"), cards)
}

#[test]
fn a_saved_error_is_reported_within_seconds_and_its_fix_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, cards) = project(dir.path());
    let good = std::fs::read_to_string(&cards).expect("card file");
    let mut watch = Watch::start(&root);
    watch.wait_for("checked 1 file:", START);
    watch.wait_for("watching cards/", START);

    let bad = good.replacen("\n  symbol ", "\n  symbl ", 1);
    let saved = Instant::now();
    std::fs::write(&cards, &bad).expect("save");
    let seen = watch.wait_for("has no field `symbl`", SAVE);
    watch.wait_for("new, 0 fixed)", SAVE);
    eprintln!("a new error was printed {:?} after the save", seen.duration_since(saved));
    let last = watch.seen.last().expect("the summary").clone();
    assert!(last.contains("1 error,"), "the misspelt field is one error: {last}");

    let saved = Instant::now();
    std::fs::write(&cards, &good).expect("save");
    let fixed = watch.wait_for("fixed: E0202 cards/proj.cards:7", SAVE);
    watch.wait_for("0 errors, 0 warnings (0 new, ", SAVE);
    eprintln!("the fix was printed {:?} after the save", fixed.duration_since(saved));
    let reprinted = watch.seen.iter().filter(|line| line.starts_with("error[E0202]")).count();
    assert_eq!(reprinted, 1, "an error is printed once, when it is new:\n{}", watch.seen.join("\n"));
    let half_saved = watch.seen.iter().any(|line| line.starts_with("error[E0101]"));
    assert!(!half_saved, "a file is checked once its save is done, not emptied:\n{}", watch.seen.join("\n"));
}

/// `cardsmith watch DIR` from outside the project reads it with its own
/// settings: its `[lints]`, its `paths` and its `exclude`.
#[test]
fn a_project_named_from_another_folder_is_watched_with_its_settings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, _) = project(dir.path());
    let half = "game dreadnaught-2e\noffense \"Half\" {\n";
    std::fs::create_dir_all(root.join("notes")).expect("notes");
    std::fs::create_dir_all(root.join("cards/old")).expect("old");
    std::fs::write(root.join("notes/half.cards"), half).expect("note");
    std::fs::write(root.join("cards/old/half.cards"), half).expect("old");
    let manifest = std::fs::read_to_string(root.join("cardsmith.toml")).expect("manifest");
    let settings = "exclude = [\"cards/old/**\"]\n[lints]\ncard-in-no-deck = \"deny\"\n";
    std::fs::write(root.join("cardsmith.toml"), format!("{manifest}{settings}")).expect("manifest");
    let mut watch = Watch::start_with(dir.path(), &["proj"]);
    watch.wait_for("error[L0010]", START);
    watch.wait_for("checked 1 file:", START);
    let seen = watch.seen.join("\n");
    assert!(!seen.contains("half.cards"), "only the project's own files are read:\n{seen}");
}

#[test]
fn an_unchanged_error_is_not_printed_again_when_another_line_moves_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, cards) = project(dir.path());
    let bad = std::fs::read_to_string(&cards).expect("card file").replacen("\n  symbol ", "\n  symbl ", 1);
    std::fs::write(&cards, &bad).expect("save");
    let mut watch = Watch::start(&root);
    watch.wait_for("has no field `symbl`", START);
    watch.wait_for("watching cards/", START);

    // Two lines above it: the error moves, and is neither new nor fixed.
    std::fs::write(&cards, format!("// one\n// two\n{bad}")).expect("save");
    watch.wait_for("(0 new, 0 fixed)", SAVE);
    let printed = watch.seen.iter().filter(|line| line.starts_with("error[E0202]")).count();
    assert_eq!(printed, 1, "{}", watch.seen.join("\n"));
    assert!(!watch.seen.iter().any(|line| line.starts_with("fixed:")), "{}", watch.seen.join("\n"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_it_with_success() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, _) = project(dir.path());
    let mut watch = Watch::start(&root);
    watch.wait_for("watching cards/", START);
    let interrupted = Command::new("kill").args(["-INT", &watch.child.id().to_string()]).status().expect("kill runs");
    assert!(interrupted.success());
    let deadline = Instant::now() + SAVE;
    let status = loop {
        if let Some(status) = watch.child.try_wait().expect("the child's status") {
            break status;
        }
        assert!(Instant::now() < deadline, "watch still runs {SAVE:?} after Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0), "Ctrl-C ends watch with success");
}

/// `watch --serve` on a new project, started: it, the card file, and the
/// server's address.
fn serving(dir: &Path) -> (Watch, PathBuf, String) {
    let (root, cards) = project(dir);
    let mut watch = Watch::start_with(&root, &["--serve", "--port", "0"]);
    watch.wait_for("serving the preview at http://", START);
    let line = watch.seen.last().expect("the line").clone();
    let address = line.split("http://").nth(1).and_then(|rest| rest.strip_suffix('/')).expect("an address").to_string();
    watch.wait_for("watching cards/", START);
    (watch, cards, address)
}

/// One GET request to the preview server; the answer's head and body.
fn get(address: &str, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(address).expect("the preview server answers");
    stream.set_read_timeout(Some(SAVE)).expect("timeout");
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").expect("request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer in time");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head and a body");
    (head.to_string(), body.to_string())
}

#[test]
fn serve_shows_the_preview_and_tells_an_open_page_to_reload_on_save() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut watch, cards, address) = serving(dir.path());
    let good = std::fs::read_to_string(&cards).expect("card file");

    let (head, page) = get(&address, "/");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(page.matches("<figure class=\"card\"").count(), 2, "one figure per card, none with problems");
    assert!(page.contains("new EventSource(\"/events\")"), "the page reloads itself");
    assert!(get(&address, "/nothing").0.starts_with("HTTP/1.1 404"));

    // An open page's event stream, read line by line in a thread.
    let mut stream = TcpStream::connect(&address).expect("events");
    write!(stream, "GET /events HTTP/1.1\r\nHost: {address}\r\n\r\n").expect("request");
    let (sender, events) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let connected = Instant::now() + SAVE;
    while events.recv_timeout(SAVE).expect("the stream opens") != ": connected" {
        assert!(Instant::now() < connected, "no `: connected` comment");
    }

    let renamed = good.replacen("Battery Control", "Battery Command", 1);
    std::fs::write(&cards, &renamed).expect("save");
    let deadline = Instant::now() + SAVE;
    while events.recv_timeout(SAVE).expect("a reload in time") != "data: reload" {
        assert!(Instant::now() < deadline, "no reload event");
    }
    let (_, page) = get(&address, "/");
    assert!(page.contains("Proj Battery Command"), "the page shows the saved card");

    // A card with a lint warning is shown with it.
    let quiet = "\nevent \"Quiet\" {\n  at 3.0 { impact damage 1 }\n  text \"Draw a card.\"\n}\n";
    std::fs::write(&cards, format!("{renamed}{quiet}")).expect("save");
    watch.wait_for("warning[L0001]", SAVE);
    let (_, page) = get(&address, "/");
    assert_eq!(page.matches("<figure class=\"card warning\"").count(), 1, "the card with the warning:\n{page}");
    assert!(page.contains("<strong>warning L0001</strong>"), "the warning is on the card");

    std::fs::write(&cards, good.replacen("\n  symbol ", "\n  symbl ", 1)).expect("save");
    watch.wait_for("preview: shows the 1 error to fix", SAVE);
    let (_, page) = get(&address, "/");
    assert!(page.contains("has no field `symbl`"), "the page says what to fix:\n{page}");
}

/// Headless Chromium with its DevTools endpoint, killed when dropped.
struct Browser(Child);

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Asks `ask` every 50 ms until it answers, for at most `limit`.
#[track_caller]
fn poll<T>(limit: Duration, what: &str, mut ask: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(answer) = ask() {
            return answer;
        }
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The titles of the pages the browser has open, from its DevTools list.
fn page_titles(devtools: &str) -> Option<Vec<String>> {
    let mut stream = TcpStream::connect(devtools).ok()?;
    stream.set_read_timeout(Some(SAVE)).ok()?;
    write!(stream, "GET /json/list HTTP/1.1\r\nHost: {devtools}\r\nConnection: close\r\n\r\n").ok()?;
    // The browser keeps the connection open: the body is as long as it says.
    let mut reader = BufReader::new(stream);
    let mut length = None;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end().to_ascii_lowercase();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("content-length:") {
            length = value.trim().parse::<u64>().ok();
        }
    }
    let mut body = String::new();
    reader.take(length?).read_to_string(&mut body).ok()?;
    let list: serde_json::Value = serde_json::from_str(&body).ok()?;
    let titles = list.as_array()?.iter().filter_map(|page| page["title"].as_str()).map(str::to_string);
    Some(titles.collect())
}

#[test]
#[ignore = "needs chromium: apt-get install chromium"]
fn an_open_page_in_chromium_reloads_on_save() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_watch, cards, address) = serving(dir.path());
    let good = std::fs::read_to_string(&cards).expect("card file");
    let url = format!("http://{address}/");

    let profile = dir.path().join("profile");
    let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"];
    let started = Command::new("chromium")
        .args(flags)
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--remote-debugging-port=0")
        .arg(&url)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let _browser = Browser(started.expect("`chromium` runs; this test needs it: apt-get install chromium"));
    let devtools = poll(START, "the DevTools port", || {
        let text = std::fs::read_to_string(profile.join("DevToolsActivePort")).ok()?;
        Some(format!("127.0.0.1:{}", text.lines().next()?.trim()))
    });
    poll(START, "the preview open in the browser", || {
        page_titles(&devtools)?.iter().any(|t| t.ends_with("cardsmith preview")).then_some(())
    });

    // An error makes the served page the list of problems: the open page
    // shows it only by reloading itself.
    std::fs::write(&cards, good.replacen("\n  symbol ", "\n  symbl ", 1)).expect("save");
    poll(SAVE * 2, "the page reloaded with the problems", || {
        page_titles(&devtools)?.iter().any(|t| t == "cardsmith preview: problems").then_some(())
    });
}

#[test]
fn an_edited_cell_of_a_listed_sheet_shows_in_the_check_and_the_preview() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (root, _) = project(dir.path());
    let manifest = std::fs::read_to_string(root.join("cardsmith.toml")).expect("manifest");
    let listed = "\n[[sheet]]\npath = \"offense.csv\"\ngame = \"dreadnaught-2e\"\nkind = \"offense\"\n";
    std::fs::write(root.join("cardsmith.toml"), format!("{manifest}{listed}")).expect("manifest");
    let sheet = root.join("offense.csv");
    let good = "name,symbol,arc,at,text\r\nSheet Shot,kinetic,narrow,3.5 { impact damage 3 },Deal 3 {damage}.\r\n";
    std::fs::write(&sheet, good).expect("sheet");
    let mut watch = Watch::start_with(&root, &["--serve", "--port", "0"]);
    watch.wait_for("serving the preview at http://", START);
    let line = watch.seen.last().expect("the line").clone();
    let address = line.split("http://").nth(1).and_then(|rest| rest.strip_suffix('/')).expect("an address").to_string();
    watch.wait_for("offense.csv", START);
    assert!(get(&address, "/").1.contains("Sheet Shot"), "the sheet's card is in the preview");

    std::fs::write(&sheet, good.replace("narrow", "sideways")).expect("save");
    watch.wait_for("in cell offense.csv!C2 (column `arc`): sideways", SAVE);
    watch.wait_for("preview: shows the 1 error to fix", SAVE);
    std::fs::write(&sheet, good.replace("Sheet Shot", "Sheet Salvo")).expect("save");
    watch.wait_for("fixed: E0208 offense.csv!C2: unknown firing arc `sideways`", SAVE);
    let deadline = Instant::now() + SAVE;
    while !get(&address, "/").1.contains("Sheet Salvo") {
        assert!(Instant::now() < deadline, "the edited cell is not in the preview");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Under `--serve`, what the preview draws with is watched too: a template
/// written or edited in the project's `templates/`, its `icons.svg` and a
/// card's art each reload the page with the new faces, and the art that
/// appears clears its W0716.
#[test]
fn serve_reloads_the_preview_when_a_template_icons_or_art_change() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut watch, cards, address) = serving(dir.path());
    let root = cards.parent().and_then(Path::parent).expect("the project").to_path_buf();
    let templates = root.join("templates/dreadnaught-2e");
    std::fs::create_dir_all(&templates).expect("templates folder");
    let face = |word: &str| {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{{{{ page.width_mm }}}}mm\" \
             height=\"{{{{ page.height_mm }}}}mm\" viewBox=\"{{{{ page.viewbox }}}}\">\
             <text x=\"10\" y=\"20\">{word}</text>{{{{ icon(id=\"marker\", x=10, y=30, size=10) }}}}</svg>\n"
        )
    };
    let shown = |text: &str| get(&address, "/").1.contains(text);
    std::fs::write(templates.join("system.svg"), face("Face-One")).expect("template");
    poll(SAVE, "the new template on the page", || shown("Face-One").then_some(()));
    std::fs::write(templates.join("system.svg"), face("Face-Two")).expect("template");
    poll(SAVE, "the edited template on the page", || shown("Face-Two").then_some(()));
    let icons = |path: &str| {
        format!("<svg><symbol id=\"marker\" viewBox=\"0 0 100 100\"><path d=\"{path}\"/></symbol></svg>\n")
    };
    std::fs::write(templates.join("icons.svg"), icons("M1 1H99V99Z")).expect("icons");
    poll(SAVE, "the icon drawn", || shown("M1 1H99V99Z").then_some(()));
    std::fs::write(templates.join("icons.svg"), icons("M2 2H98V98Z")).expect("icons");
    poll(SAVE, "the icon redrawn", || shown("M2 2H98V98Z").then_some(()));

    // A card naming art not yet there: W0716, gone once the file is saved.
    let text = std::fs::read_to_string(&cards).expect("card file");
    let with_art =
        text.replacen("system \"Proj Battery Control\" {", "system \"Proj Battery Control\" {\n  art \"art/a.svg\"", 1);
    std::fs::write(&cards, with_art).expect("save");
    watch.wait_for("warning[W0716]", SAVE);
    std::fs::create_dir_all(root.join("art")).expect("art folder");
    let art =
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\"/></svg>";
    std::fs::write(root.join("art/a.svg"), art).expect("art");
    watch.wait_for("fixed: W0716", SAVE);
}
