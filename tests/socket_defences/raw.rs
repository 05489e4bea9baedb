//! A bare WebSocket client over a blocking TCP stream, for what awc will not do: keep a
//! small receive buffer and never read, connect from another loopback address, and send
//! binary, ping, pong and fragmented frames at will.

use socket2::{Domain, Socket as Sock, Type};
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::Duration;

pub const TEXT: u8 = 0x1;
pub const BINARY: u8 = 0x2;
pub const CLOSE: u8 = 0x8;
pub const PING: u8 = 0x9;
pub const PONG: u8 = 0xA;
pub const CONTINUATION: u8 = 0x0;

pub struct Raw {
    stream: TcpStream,
}

/// An upgrade the server refused: its status and body.
#[derive(Debug)]
pub struct Refused {
    pub status: u16,
    pub body: String,
}

/// What came off the wire.
#[derive(Debug, PartialEq)]
pub enum Frame {
    Text(String),
    Other(u8),
    Close(Option<u16>, String),
    /// The connection ended (or nothing came within the read timeout: `Quiet`).
    Eof,
    Quiet,
}

#[derive(Default)]
pub struct Options<'a> {
    pub cookie: Option<&'a str>,
    pub from: Option<IpAddr>,
    pub receive_buffer: Option<usize>,
    pub origin: Option<&'a str>,
    pub forwarded_for: Option<&'a str>,
}

impl Raw {
    pub fn connect(addr: &str, path: &str, o: Options) -> Result<Raw, Refused> {
        let to: SocketAddr = addr.parse().expect("a socket address");
        let sock = Sock::new(Domain::IPV4, Type::STREAM, None).expect("a socket");
        if let Some(n) = o.receive_buffer {
            // Before connecting, so that the window offered is small from the start.
            sock.set_recv_buffer_size(n).expect("SO_RCVBUF");
        }
        if let Some(ip) = o.from {
            sock.bind(&SocketAddr::new(ip, 0).into())
                .expect("bind the local address");
        }
        sock.connect(&to.into()).expect("connect");
        let mut stream: TcpStream = sock.into();
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
        let mut req = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\
             Accept-Encoding: gzip, deflate, br, zstd\r\n"
        );
        // As browsers do: a refusal compressed for it once came back marked chunked
        // with the compressed bytes sent bare, which no client could read.
        if let Some(c) = o.cookie {
            req.push_str(&format!("Cookie: {c}\r\n"));
        }
        if let Some(origin) = o.origin {
            req.push_str(&format!("Origin: {origin}\r\n"));
        }
        if let Some(ip) = o.forwarded_for {
            req.push_str(&format!("X-Forwarded-For: {ip}\r\n"));
        }
        req.push_str("\r\n");
        stream.write_all(req.as_bytes()).expect("send the upgrade");
        // The head byte by byte, so that no frame is read with it.
        let mut head = Vec::new();
        let mut b = [0u8];
        while !head.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut b).expect("read the answer's head");
            head.push(b[0]);
        }
        let head = String::from_utf8_lossy(&head).to_string();
        let status: u16 = head[9..12].parse().expect("a status code");
        if status == 101 {
            return Ok(Raw { stream });
        }
        let length = head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse::<usize>().ok())?
            })
            .unwrap_or(0);
        let mut body = vec![0; length];
        stream
            .read_exact(&mut body)
            .expect("read the answer's body");
        Err(Refused {
            status,
            body: String::from_utf8_lossy(&body).to_string(),
        })
    }

    /// Sends one frame (masked, as a client must; the mask is zero).
    pub fn send(&mut self, opcode: u8, fin: bool, payload: &[u8]) -> std::io::Result<()> {
        let mut f = vec![opcode | if fin { 0x80 } else { 0 }];
        match payload.len() {
            n if n < 126 => f.push(0x80 | n as u8),
            n if n < 65536 => {
                f.push(0x80 | 126);
                f.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                f.push(0x80 | 127);
                f.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        f.extend_from_slice(&[0; 4]);
        f.extend_from_slice(payload);
        self.stream.write_all(&f)
    }

    pub fn set_timeout(&self, t: Duration) {
        self.stream.set_read_timeout(Some(t)).unwrap();
    }

    pub fn next(&mut self) -> Frame {
        let mut h = [0u8; 2];
        match self.stream.read_exact(&mut h) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Frame::Eof,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return Frame::Eof,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Frame::Quiet;
            }
            Err(e) => panic!("read a frame: {e}"),
        }
        let opcode = h[0] & 0x0f;
        let len = match h[1] & 0x7f {
            126 => {
                let mut l = [0u8; 2];
                self.stream.read_exact(&mut l).unwrap();
                u16::from_be_bytes(l) as usize
            }
            127 => {
                let mut l = [0u8; 8];
                self.stream.read_exact(&mut l).unwrap();
                u64::from_be_bytes(l) as usize
            }
            n => n as usize,
        };
        let mut payload = vec![0; len];
        self.stream.read_exact(&mut payload).unwrap();
        match opcode {
            TEXT => Frame::Text(String::from_utf8(payload).expect("UTF-8 text")),
            CLOSE if payload.len() >= 2 => Frame::Close(
                Some(u16::from_be_bytes([payload[0], payload[1]])),
                String::from_utf8_lossy(&payload[2..]).to_string(),
            ),
            CLOSE => Frame::Close(None, String::new()),
            other => Frame::Other(other),
        }
    }

    /// Reads until the close frame (or the end); returns the text frames and the close.
    pub fn until_closed(&mut self) -> (Vec<String>, Frame) {
        let mut texts = Vec::new();
        loop {
            match self.next() {
                Frame::Text(t) => texts.push(t),
                Frame::Other(_) => {}
                end => return (texts, end),
            }
        }
    }
}
