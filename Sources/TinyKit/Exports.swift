// The umbrella module: `import TinyKit` gives every TinyKit module at once.
@_exported import TinyEndpoint
@_exported import TinyHTTPTransport
@_exported import TinyMocks
@_exported import TinyRequestState
@_exported import TinyStatefulEndpoint
@_exported import TinyStore

#if AsyncHTTPClient
    @_exported import TinyAsyncHTTPClientTransport
#endif
