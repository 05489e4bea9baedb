//! Bot accounts for the live tests, made the way their owners make them: register,
//! mark the account as a bot, create a token; the bot's client then carries the token
//! and no cookie.

use super::{Client, Harness};
use serde_json::json;

/// A bot account: its owner's logged-in session and the bot's own token-only client.
pub struct Bot {
    pub owner: Client,
    pub client: Client,
    pub token: String,
    pub token_id: i64,
}

impl Harness {
    /// A new bot account `name` with one token, named "tests".
    pub async fn bot(&self, name: &str) -> Bot {
        let mut owner = self.player(name).await;
        let r = owner.post("/api/bot/kind", json!({"kind": "bot"})).await;
        assert_eq!(r.status, 200, "mark {name} as a bot: {}", r.text);
        let r = owner
            .post("/api/bot/tokens", json!({"name": "tests"}))
            .await;
        assert_eq!(r.status, 201, "a token for {name}: {}", r.text);
        let token = r.json["token"].as_str().expect("the new token").to_string();
        let token_id = r.json["id"].as_i64().expect("the token's id");
        Bot {
            owner,
            client: self.token_client(name, &token),
            token,
            token_id,
        }
    }

    /// A new player `name`: a person logged in with a cookie, or (`bot`) a bot account
    /// that authenticates with its token alone. The hidden-information tests run both.
    pub async fn player_or_bot(&self, name: &str, bot: bool) -> Client {
        if bot {
            self.bot(name).await.client
        } else {
            self.player(name).await
        }
    }

    /// A client that authenticates with `token` alone.
    pub fn token_client(&self, name: &str, token: &str) -> Client {
        let mut c = self.client();
        c.name = name.to_string();
        c.bearer = Some(token.to_string());
        c
    }
}
