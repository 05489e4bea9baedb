//! The web service: routes, pages, sockets, sessions, and the mapping of errors to HTTP.

pub mod access_log;
mod api;
mod assets;
mod auth;
mod bearer;
mod bots;
mod chart;
mod display_name;
pub mod error;
mod head;
mod headers;
mod history;
mod i18n;
mod ladder;
mod layouts;
mod origin;
mod page_cache;
mod pages;
mod profile;
pub mod server;
pub mod sessions;
mod socket_caps;
mod throttle;
mod ws;
mod ws_io;
