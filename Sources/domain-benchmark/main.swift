print("domain-benchmark: not written yet")
