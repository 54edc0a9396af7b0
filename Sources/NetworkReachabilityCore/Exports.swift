// The public values (flags, paths, interfaces, errors) are declared in the model layer; users see
// them through this module, as they always have.
@_exported import ReachabilityModel
