//! cellmate: a chess-variant engine speaking XBoard (CECP v2) and UCI.
//!
//! Rooms, with doors one way: [`protocol`] → [`engine`] → [`variants`] / [`core`]; the game
//! history ([`game`]) sits between the protocols and the rules.
//! See `docs/architecture.md`.

pub mod book;
pub mod core;
pub mod datagen;
pub mod engine;
pub mod game;
pub mod gui;
pub mod nnue_train;
pub mod notation;
pub mod pgn;
pub mod protocol;
pub mod referee;
pub mod serve;
pub mod texel;
pub mod tune;
pub mod variants;
pub mod xbwire;
