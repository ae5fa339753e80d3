// Tests and benches use the same DPoP client code as the app.
export * from '../../src/node/dpop.js'
