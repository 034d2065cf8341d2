//! Why a live job could not be read: the answer is not JSON, has the wrong shape (with the field
//! path, e.g. `/jobs/….vertices[1].parallelism`), an endpoint's answer is missing from a bundle,
//! Flink answered an error body, or the job is not running.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveError {
    /// Not JSON at all (a proxy's HTML page, a truncated paste).
    Garbage { path: String, message: String },
    /// JSON, but not the shape Flink sends: `path` names the field.
    Shape { path: String, message: String },
    /// A bundle lacks the answer of endpoint `path`.
    Missing { path: String },
    /// Flink's `{"errors":[…]}` body (first line of the first error).
    Flink { path: String, message: String },
    /// The job ended or is ending: nothing to poll.
    NotRunning { job_id: String, state: String },
}

impl LiveError {
    pub fn shape(path: impl Into<String>, message: impl Into<String>) -> Self {
        LiveError::Shape { path: path.into(), message: message.into() }
    }
}

impl fmt::Display for LiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LiveError::Garbage { path, message } => write!(f, "{path}: not JSON ({message})"),
            LiveError::Shape { path, message } => write!(f, "{path}: {message}"),
            LiveError::Missing { path } => write!(f, "{path}: missing (no answer for this endpoint)"),
            LiveError::Flink { path, message } => write!(f, "{path}: Flink answered: {message}"),
            LiveError::NotRunning { job_id, state } => {
                write!(f, "job {job_id} is {state}: only a RUNNING job has watermarks to read")
            }
        }
    }
}

impl std::error::Error for LiveError {}
