// placeholder for UpstreamStub
