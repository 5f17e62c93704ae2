import RelayCore
