use clap::Parser;

// A page allocates and frees many small strings and rows from several threads; glibc's
// allocator spent a seventh of a profile page's CPU on that (measured in BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    junqi::cli::run(junqi::cli::Cli::parse())
}
