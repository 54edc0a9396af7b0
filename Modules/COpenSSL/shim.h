#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// OpenSSL 3 (libssl, libcrypto) for the connectivity probe's https:// client, and wrappers for
// the function-like macros Swift cannot import. Only Sources/NetworkReachabilityCore/Connectivity
// imports this module.

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/// A client context: TLS 1.2 at least, peer verification on, and a peer that closes without
/// close_notify read as a close (HTTP servers with `Connection: close` often do). NULL on failure.
static inline SSL_CTX *COpenSSL_makeClientContext(void) {
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    if (context == NULL) return NULL;
    if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1) {
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
    // Partial writes and a moving write buffer: the probe's send loop retries from where it was.
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    return context;
}

/// SNI: the server name sent in the ClientHello. 1 on success.
static inline int COpenSSL_setServerName(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

#endif
