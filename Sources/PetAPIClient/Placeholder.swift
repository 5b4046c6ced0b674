// placeholder for PetAPIClient
