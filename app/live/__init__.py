"""The live hub: room WebSockets and the pub/sub that carries room events between processes."""
