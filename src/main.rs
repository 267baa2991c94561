fn main() -> std::process::ExitCode {
    cardsmith::cli::main()
}
