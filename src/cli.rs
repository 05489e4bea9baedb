//! The `junqi` command line: `verify` and `selfplay`.

use crate::record::{Record, invalid_json};
use crate::rules::Variant;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(name = "junqi", version, about = "军棋翻翻棋 and standard 军棋")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay a junqi-record/1 file, check its commitment and print one line of JSON.
    /// Exit 0 when valid, 1 when not, 2 when the input cannot be read.
    Verify {
        /// The record file, or - for standard input.
        file: PathBuf,
    },
    /// Play random games (uniform among legal flips and moves) and report outcomes and speed.
    Selfplay {
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = VariantArg::Flip)]
        variant: VariantArg,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum VariantArg {
    Flip,
    Standard,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Flip => Variant::Flip,
            VariantArg::Standard => Variant::Standard,
        }
    }
}

pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Verify { file } => verify(&file),
        Command::Selfplay {
            games,
            seed,
            variant,
            json,
        } => {
            let report = crate::selfplay::run(variant.into(), games, seed);
            if json {
                println!(
                    "{}",
                    serde_json::to_string(&report).expect("report serialises")
                );
            } else {
                print!("{}", report.to_text());
            }
            ExitCode::SUCCESS
        }
    }
}

fn read_input(file: &PathBuf) -> std::io::Result<String> {
    if file.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(file)
    }
}

fn verify(file: &PathBuf) -> ExitCode {
    let text = match read_input(file) {
        Ok(t) => t,
        Err(e) => {
            let msg = format!("cannot read {}: {e}", file.display());
            println!(
                "{}",
                serde_json::json!({"valid": false, "action": null, "error": msg})
            );
            return ExitCode::from(2);
        }
    };
    match Record::parse_str(&text).and_then(|r| r.verify()) {
        Ok(v) => {
            println!("{}", v.to_json());
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{}", invalid_json(&e));
            ExitCode::from(1)
        }
    }
}
