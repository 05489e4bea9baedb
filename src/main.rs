use clap::Parser;

// A page allocates and frees many small strings and rows across threads: glibc's
// allocator took about a seventh of a profile page's CPU, and with mimalloc SQLite
// pages serve about 9% more (BENCHMARKS.md, fourth round).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    junqi::cli::run(junqi::cli::Cli::parse())
}
