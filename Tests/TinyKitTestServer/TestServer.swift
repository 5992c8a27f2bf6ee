// Placeholder: the in-process test server lands with the TinyHTTPTransport integration tests.
import FlyingFox
