//! The variants: each implements [`crate::core::Variant`].

pub mod chess;
pub mod immune;
pub mod micro;
pub mod recursion;
