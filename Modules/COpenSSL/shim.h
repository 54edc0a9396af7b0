#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

// OpenSSL 3 (libssl, libcrypto) for the connectivity probe's https:// client. The headers give
// the types and constants; the functions are not linked: the process loads the libraries with
// dlopen at the first https:// probe or captive-portal API fetch (`OpenSSLLibrary`), and calls
// them through `COpenSSL_Functions`, filled by `COpenSSL_resolve`. A program that never probes
// https:// maps neither library, and runs where libssl3 is not installed. Only
// Sources/ReachabilityConnectivity imports this module.

#include <dlfcn.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#define COPENSSL_FUNCTION(name) __typeof__(&name) _Nonnull name

/// The OpenSSL functions the probe calls, each typed as the headers declare it.
typedef struct COpenSSL_Functions {
    // libssl
    COPENSSL_FUNCTION(TLS_client_method);
    COPENSSL_FUNCTION(SSL_CTX_new);
    COPENSSL_FUNCTION(SSL_CTX_free);
    COPENSSL_FUNCTION(SSL_CTX_ctrl);
    COPENSSL_FUNCTION(SSL_CTX_set_options);
    COPENSSL_FUNCTION(SSL_CTX_set_verify);
    COPENSSL_FUNCTION(SSL_CTX_load_verify_locations);
    COPENSSL_FUNCTION(SSL_CTX_set_default_verify_paths);
    COPENSSL_FUNCTION(SSL_new);
    COPENSSL_FUNCTION(SSL_free);
    COPENSSL_FUNCTION(SSL_ctrl);
    COPENSSL_FUNCTION(SSL_set_fd);
    COPENSSL_FUNCTION(SSL_get0_param);
    COPENSSL_FUNCTION(SSL_set1_host);
    COPENSSL_FUNCTION(SSL_connect);
    COPENSSL_FUNCTION(SSL_get_error);
    COPENSSL_FUNCTION(SSL_get_verify_result);
    COPENSSL_FUNCTION(SSL_read);
    COPENSSL_FUNCTION(SSL_write);
    // libcrypto
    COPENSSL_FUNCTION(ERR_clear_error);
    COPENSSL_FUNCTION(ERR_get_error);
    COPENSSL_FUNCTION(ERR_error_string_n);
    COPENSSL_FUNCTION(X509_VERIFY_PARAM_set1_ip_asc);
    COPENSSL_FUNCTION(X509_verify_cert_error_string);
} COpenSSL_Functions;

#undef COPENSSL_FUNCTION

/// Fills `functions` from the opened libraries. NULL on success, else the name of the first
/// function neither library has (an OpenSSL older than 3).
static inline const char *_Nullable COpenSSL_resolve(void *_Nonnull ssl, void *_Nonnull crypto,
                                                     COpenSSL_Functions *_Nonnull functions) {
#define COPENSSL_RESOLVE(handle, name) \
    if ((functions->name = (__typeof__(functions->name))dlsym(handle, #name)) == NULL) return #name;
    COPENSSL_RESOLVE(ssl, TLS_client_method)
    COPENSSL_RESOLVE(ssl, SSL_CTX_new)
    COPENSSL_RESOLVE(ssl, SSL_CTX_free)
    COPENSSL_RESOLVE(ssl, SSL_CTX_ctrl)
    COPENSSL_RESOLVE(ssl, SSL_CTX_set_options)
    COPENSSL_RESOLVE(ssl, SSL_CTX_set_verify)
    COPENSSL_RESOLVE(ssl, SSL_CTX_load_verify_locations)
    COPENSSL_RESOLVE(ssl, SSL_CTX_set_default_verify_paths)
    COPENSSL_RESOLVE(ssl, SSL_new)
    COPENSSL_RESOLVE(ssl, SSL_free)
    COPENSSL_RESOLVE(ssl, SSL_ctrl)
    COPENSSL_RESOLVE(ssl, SSL_set_fd)
    COPENSSL_RESOLVE(ssl, SSL_get0_param)
    COPENSSL_RESOLVE(ssl, SSL_set1_host)
    COPENSSL_RESOLVE(ssl, SSL_connect)
    COPENSSL_RESOLVE(ssl, SSL_get_error)
    COPENSSL_RESOLVE(ssl, SSL_get_verify_result)
    COPENSSL_RESOLVE(ssl, SSL_read)
    COPENSSL_RESOLVE(ssl, SSL_write)
    COPENSSL_RESOLVE(crypto, ERR_clear_error)
    COPENSSL_RESOLVE(crypto, ERR_get_error)
    COPENSSL_RESOLVE(crypto, ERR_error_string_n)
    COPENSSL_RESOLVE(crypto, X509_VERIFY_PARAM_set1_ip_asc)
    COPENSSL_RESOLVE(crypto, X509_verify_cert_error_string)
#undef COPENSSL_RESOLVE
    return NULL;
}

/// A client context: TLS 1.2 at least, peer verification on, and a peer that closes without
/// close_notify read as a close (HTTP servers with `Connection: close` often do). NULL on failure.
static inline SSL_CTX *_Nullable COpenSSL_makeClientContext(const COpenSSL_Functions *_Nonnull ssl) {
    SSL_CTX *context = ssl->SSL_CTX_new(ssl->TLS_client_method());
    if (context == NULL) return NULL;
    // SSL_CTX_set_min_proto_version and SSL_CTX_set_mode are macros over SSL_CTX_ctrl.
    if (ssl->SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL) != 1) {
        ssl->SSL_CTX_free(context);
        return NULL;
    }
    ssl->SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    ssl->SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION);
    // Partial writes and a moving write buffer: the probe's send loop retries from where it was.
    ssl->SSL_CTX_ctrl(context, SSL_CTRL_MODE, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, NULL);
    return context;
}

/// SNI: the server name sent in the ClientHello (SSL_set_tlsext_host_name, a macro over SSL_ctrl). 1 on success.
static inline int COpenSSL_setServerName(const COpenSSL_Functions *_Nonnull ssl, SSL *_Nonnull connection,
                                         const char *_Nonnull name) {
    return (int)ssl->SSL_ctrl(connection, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, (void *)name);
}

#endif
