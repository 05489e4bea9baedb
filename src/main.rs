use clap::Parser;

fn main() -> std::process::ExitCode {
    junqi::cli::run(junqi::cli::Cli::parse())
}
