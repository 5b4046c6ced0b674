// placeholder for DemoUpstream
