//! `input_twin!`: an input type whose JSON layout needs serde's `Content` buffer to read
//! (internally or adjacently tagged, untagged) reads through a twin instead.
//!
//! serde's attributes cannot differ between the two directions, so the type keeps its layout
//! attributes for `Serialize` (and ts-rs), and its `Deserialize` reads an externally tagged twin
//! with the same variants and fields, whose serde name tells `value_path` the layout (`$tag:…`,
//! `$shape`; see there). The macro writes the twin and the conversion from the one definition,
//! so variants and fields cannot drift; the container attributes are written for each (the
//! presets' write-then-read test and `Action`'s check that they agree). The twin has the type's
//! name, in a module of its own, because serde's messages name it ("struct variant
//! Action::WakeLate"). Inputs are read only through `value_path` (`error::from_value`): another
//! deserializer would read the twin's externally tagged layout.

/// ```ignore
/// input_twin! {
///     #[derive(Clone, Debug, Serialize)]
///     #[serde(tag = "type", rename_all = "snake_case")]
///     pub enum Trigger reads trigger_in #[serde(rename = "$tag:type", rename_all = "snake_case")] {
///         EventTime,
///         Count { count: u64 },
///     }
/// }
/// ```
macro_rules! input_twin {
    (@arms $t:ident $M:ident $N:ident [$($arms:tt)*]) => {
        match $t { $($arms)* }
    };
    (@arms $t:ident $M:ident $N:ident [$($arms:tt)*] $V:ident { $($f:ident),* } , $($rest:tt)*) => {
        $crate::engine::input_twin::input_twin!(@arms $t $M $N [$($arms)* $M::$N::$V { $($f),* } => $N::$V { $($f),* },] $($rest)*)
    };
    (@arms $t:ident $M:ident $N:ident [$($arms:tt)*] $V:ident ( $nt:ty ) , $($rest:tt)*) => {
        $crate::engine::input_twin::input_twin!(@arms $t $M $N [$($arms)* $M::$N::$V(value) => $N::$V(value),] $($rest)*)
    };
    (@arms $t:ident $M:ident $N:ident [$($arms:tt)*] $V:ident , $($rest:tt)*) => {
        $crate::engine::input_twin::input_twin!(@arms $t $M $N [$($arms)* $M::$N::$V => $N::$V,] $($rest)*)
    };
    (
        $(#[$m:meta])*
        $vis:vis enum $Name:ident reads $twin:ident #[serde($($attr:tt)*)] {
            $( $(#[$vm:meta])* $V:ident $( { $( $(#[$fm:meta])* $f:ident : $ft:ty ),* $(,)? } )? $( ( $nt:ty ) )? ),* $(,)?
        }
    ) => {
        $(#[$m])*
        $vis enum $Name {
            $( $(#[$vm])* $V $( { $( $(#[$fm])* $f : $ft ),* } )? $( ( $nt ) )? ),*
        }

        mod $twin {
            #[allow(unused_imports)]
            use super::*;

            #[derive(serde::Deserialize)]
            #[serde($($attr)*)]
            pub(super) enum $Name {
                $( $(#[$vm])* $V $( { $( $(#[$fm])* $f : $ft ),* } )? $( ( $nt ) )? ),*
            }
        }

        impl From<$twin::$Name> for $Name {
            fn from(t: $twin::$Name) -> Self {
                $crate::engine::input_twin::input_twin!(@arms t $twin $Name [] $( $V $( { $($f),* } )? $( ( $nt ) )? , )*)
            }
        }

        impl<'de> serde::Deserialize<'de> for $Name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                <$twin::$Name as serde::Deserialize>::deserialize(d).map(Self::from)
            }
        }
    };
}

pub(crate) use input_twin;
