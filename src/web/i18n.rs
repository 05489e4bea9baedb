//! The page language: Simplified Chinese by default, English on request. The choice is
//! a `?lang=en|zh` parameter (remembered in a `lang` cookie from then on) or the cookie.

use actix_web::cookie::{Cookie, SameSite, time};
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use std::future::{Ready, ready};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lang {
    pub en: bool,
    /// The request chose a language by parameter: remember it.
    remember: bool,
}

impl Lang {
    fn from_code(code: &str) -> Option<bool> {
        match code {
            "en" => Some(true),
            "zh" | "zh-CN" => Some(false),
            _ => None,
        }
    }

    /// An HTML answer in this language, setting the cookie when the choice is new.
    pub fn html(self, body: String) -> HttpResponse {
        let mut res = HttpResponse::Ok();
        res.content_type("text/html; charset=utf-8");
        if self.remember {
            res.cookie(
                Cookie::build("lang", if self.en { "en" } else { "zh" })
                    .path("/")
                    .same_site(SameSite::Lax)
                    .max_age(time::Duration::days(365))
                    .finish(),
            );
        }
        res.body(body)
    }
}

impl FromRequest for Lang {
    type Error = actix_web::Error;
    type Future = Ready<Result<Lang, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let by_param = req
            .query_string()
            .split('&')
            .filter_map(|kv| kv.strip_prefix("lang="))
            .find_map(Lang::from_code);
        let lang = match by_param {
            Some(en) => Lang { en, remember: true },
            None => Lang {
                en: req
                    .cookie("lang")
                    .and_then(|c| Lang::from_code(c.value()))
                    .unwrap_or(false),
                remember: false,
            },
        };
        ready(Ok(lang))
    }
}
